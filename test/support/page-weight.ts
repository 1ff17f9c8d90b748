import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * What a page's files weigh on the wire as CloudFront serves them: compressed with gzip or
 * Brotli when the viewer accepts it, and only files of 1,000 bytes or more (CloudFront sends
 * smaller ones as they are). Gzip at level 6 and Brotli at quality 11, the libraries' defaults;
 * CloudFront does not publish its levels, so these figures are estimates within a few percent.
 */

export const CLOUDFRONT_MIN_COMPRESSED_BYTES = 1000;

export interface FileWeight {
  path: string;
  bytes: number;
  gzip: number;
  brotli: number;
}

export function weigh(path: string, body: Buffer): FileWeight {
  if (body.length < CLOUDFRONT_MIN_COMPRESSED_BYTES) return { path, bytes: body.length, gzip: body.length, brotli: body.length };
  return {
    path,
    bytes: body.length,
    gzip: gzipSync(body).length,
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }).length,
  };
}

export function total(files: readonly FileWeight[]): Omit<FileWeight, 'path'> {
  return files.reduce((sum, file) => ({ bytes: sum.bytes + file.bytes, gzip: sum.gzip + file.gzip, brotli: sum.brotli + file.brotli }), {
    bytes: 0,
    gzip: 0,
    brotli: 0,
  });
}
