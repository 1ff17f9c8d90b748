import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertJavaAvailable } from '#local/dynamodb-local';

/** `npm start` explains a missing or old Java before it tries to start DynamoDB Local. */

let binDir: string;

beforeEach(() => {
  binDir = mkdtempSync(path.join(tmpdir(), 'fake-java-'));
});
afterEach(() => {
  rmSync(binDir, { recursive: true, force: true });
});

/** A `java` on PATH that reports the given `java -version` line, as real JVMs do, on stderr. */
function fakeJava(versionLine: string): void {
  const script = path.join(binDir, 'java');
  writeFileSync(script, `#!/bin/sh\necho '${versionLine}' >&2\n`);
  chmodSync(script, 0o755);
}

const withPathOnlyTo = (dir: string) => () => assertJavaAvailable({ PATH: dir });

test('no java on PATH: says Java 17+ is needed and how to get it or avoid it', () => {
  expect(withPathOnlyTo(binDir)).toThrow(/needs Java 17\+.*no 'java' was found.*openjdk-17-jre-headless.*DYNAMODB_ENDPOINT/s);
});

test.each([
  ['openjdk version "11.0.22" 2024-01-16', 11],
  ['java version "1.8.0_401"', 8],
])('%s is refused as Java %i', (line, major) => {
  fakeJava(line);
  expect(withPathOnlyTo(binDir)).toThrow(`needs Java 17+, but 'java -version' reports ${major}`);
});

test.each(['openjdk version "17.0.15" 2025-04-15', 'openjdk version "21" 2023-09-19'])('%s is accepted', (line) => {
  fakeJava(line);
  expect(withPathOnlyTo(binDir)).not.toThrow();
});
