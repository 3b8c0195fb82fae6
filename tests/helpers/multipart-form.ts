// multipart/form-data bodies assembled byte by byte, so a test controls every part: names, file
// names, declared types and contents that need not agree with each other.
import { randomBytes } from 'node:crypto';

export type FormPart =
  { name: string; value: string } | { name: string; data: Buffer; filename?: string; contentType?: string };

export function multipartForm(
  parts: FormPart[],
  boundary = `----bodegacats${randomBytes(8).toString('hex')}`,
): { payload: Buffer; headers: Record<string, string> } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('data' in part) {
      const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.name}"${filename}\r\n`),
        Buffer.from(`Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`),
        part.data,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
