import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Per shard, the last sequence number whose batch was fully fanned out (with DATA_DIR), as Lambda's
 * mapping keeps its checkpoint. Written whole after each batch: a temp file renamed over the old one.
 */

interface CheckpointFile {
  /** A table created again has a new stream, whose sequence numbers mean nothing to the old one. */
  streamArn: string;
  shards: Record<string, string>;
}

export class StreamCheckpoint {
  private readonly file: string;
  private readonly shards: Map<string, string>;

  /** `kept`: whether a checkpoint of this stream was found; without one, the caller decides where to start. */
  readonly kept: boolean;

  constructor(
    directory: string,
    private readonly streamArn: string,
  ) {
    mkdirSync(directory, { recursive: true });
    this.file = path.join(directory, 'stream-checkpoint.json');
    const saved = existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as CheckpointFile) : undefined;
    this.kept = saved?.streamArn === streamArn;
    this.shards = new Map(this.kept && saved ? Object.entries(saved.shards) : []);
  }

  /** The last sequence number fully fanned out in `shardId`, if any. */
  positionOf(shardId: string): string | undefined {
    return this.shards.get(shardId);
  }

  save(shardId: string, sequenceNumber: string): void {
    if (this.shards.get(shardId) === sequenceNumber) return;
    this.shards.set(shardId, sequenceNumber);
    const content: CheckpointFile = { streamArn: this.streamArn, shards: Object.fromEntries(this.shards) };
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, JSON.stringify(content));
    renameSync(temporary, this.file);
  }
}
