/** The document formats the API accepts, by their MIME type. */
export type DocumentContentType = 'application/pdf' | 'image/jpeg' | 'image/png';

const SIGNATURES: readonly { type: DocumentContentType; bytes: readonly number[] }[] = [
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // "%PDF-"
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] }, // SOI + the next marker's 0xFF
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
];

/**
 * The format of a file read from its leading bytes ("magic numbers"), or undefined when it is none
 * of PDF, JPEG, PNG. Names and declared content types are never trusted: a PNG named `.pdf` is a PNG.
 */
export function sniffDocumentType(bytes: Uint8Array): DocumentContentType | undefined {
  return SIGNATURES.find((s) => s.bytes.every((b, k) => bytes[k] === b))?.type;
}
