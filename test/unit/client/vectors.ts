import vectors from '../../../client/test-vectors.json';

/** client/test-vectors.json, typed: what clients in other languages check themselves against. */
export interface Vector {
  name: string;
  field: 'data' | 'filename';
  plaintextUtf8?: string;
  plaintextHex?: string;
  aad: string;
  ivHex: string;
  encoding: string;
  sent: string;
}

export const VECTORS = vectors as { keyHex: string; keyBase64Url: string; link: { url: string; link: string }; vectors: Vector[] };

export const hex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));

export const plaintextOf = (vector: Vector): Uint8Array =>
  vector.plaintextHex !== undefined ? hex(vector.plaintextHex) : new TextEncoder().encode(vector.plaintextUtf8 ?? '');
