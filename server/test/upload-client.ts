import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { call } from './harness.ts';

/** A test-side uploader speaking the chunk protocol as the web client does. */
export interface UploadSpec {
  name: string;
  content: Buffer;
  chunkSize?: number;
  currentDirectory?: string;
  relativePath?: string;
  lastModified?: number;
  identifier?: string;
}

export function chunkPlan(spec: UploadSpec) {
  const chunkSize = spec.chunkSize ?? 1024 * 1024;
  const totalSize = spec.content.length;
  const totalChunks = Math.max(1, Math.floor(totalSize / chunkSize));
  const identifier = spec.identifier ?? createHash('sha256').update(spec.content).digest('hex');
  const base = {
    chunkSize,
    totalSize,
    totalChunks,
    identifier,
    filename: spec.name,
    relativePath: spec.relativePath ?? spec.name,
    currentDirectory: spec.currentDirectory ?? '/',
    ...(spec.lastModified ? { lastModified: spec.lastModified } : {}),
  };
  const chunks = Array.from({ length: totalChunks }, (_, i) => {
    const start = i * chunkSize;
    const end = i === totalChunks - 1 ? totalSize : start + chunkSize;
    return {
      chunkNumber: i + 1,
      currentChunkSize: end - start,
      bytes: spec.content.subarray(start, end),
    };
  });
  return { base, chunks };
}

export function multipartBody(
  fields: Record<string, string | number>,
  bytes: Buffer,
  filename: string,
) {
  const boundary = `----nimbus${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${encodeURIComponent(filename)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
  );
  parts.push(bytes, Buffer.from(`\r\n--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export async function sendChunk(
  app: FastifyInstance,
  token: string,
  fields: Record<string, string | number>,
  bytes: Buffer,
) {
  const { payload, contentType } = multipartBody(fields, bytes, String(fields.filename));
  const res = await app.inject({
    method: 'POST',
    url: '/api/upload',
    payload,
    headers: { 'content-type': contentType, 'nimbus-token': token },
  });
  return {
    status: res.statusCode,
    body: res.json<{
      code: number;
      message: string;
      data?: { upload: boolean; merge: boolean };
    }>(),
  };
}

/** The whole flow: test each chunk, send what is missing, merge. */
export async function uploadFile(app: FastifyInstance, token: string, spec: UploadSpec) {
  const { base, chunks } = chunkPlan(spec);
  let sent = 0;
  let merge = false;
  for (const c of chunks) {
    const test = await call<{ pass: boolean; resume: number[] }>(app, 'GET', '/upload', {
      token,
      query: { ...base, chunkNumber: c.chunkNumber, currentChunkSize: c.currentChunkSize },
    });
    if (test.body.code !== 0) return { test, sent, merged: null };
    if (test.body.data!.pass) return { test, sent, merged: null, instant: true };
    if (test.body.data!.resume.includes(c.chunkNumber)) continue;
    const res = await sendChunk(
      app,
      token,
      { ...base, chunkNumber: c.chunkNumber, currentChunkSize: c.currentChunkSize },
      c.bytes,
    );
    if (res.body.code !== 0) return { chunk: res, sent, merged: null };
    sent += 1;
    merge = res.body.data!.merge;
  }
  const merged = await call<{ upload: boolean; file: { id: string; name: string; path: string } }>(
    app,
    'POST',
    '/merge',
    { token, query: base },
  );
  return { sent, merge, merged };
}
