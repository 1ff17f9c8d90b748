import { spawnSync } from 'node:child_process';

const REQUIRED_MAJOR = 17;

/** DynamoDB Local is a Java program: say plainly what is missing before trying to start it. */
export function assertJavaAvailable(env: NodeJS.ProcessEnv = process.env): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8', env });
  if (probe.error) {
    throw new Error(
      `DynamoDB Local needs Java ${REQUIRED_MAJOR}+, but no 'java' was found on PATH. ` +
        `Install a JRE (e.g. 'apt-get install openjdk-17-jre-headless'), ` +
        `or set DYNAMODB_ENDPOINT to a DynamoDB that is already running.`,
    );
  }
  const version = /version "(\d+)(?:\.(\d+))?/.exec(`${probe.stderr}${probe.stdout}`);
  const major = version ? Number(version[1] === '1' ? version[2] : version[1]) : NaN;
  if (!(major >= REQUIRED_MAJOR)) {
    throw new Error(`DynamoDB Local needs Java ${REQUIRED_MAJOR}+, but 'java -version' reports ${version ? major : 'an unknown version'}.`);
  }
}
