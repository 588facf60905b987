import type { ShareView } from '@nimbus/contract';
import { call, type CallResult, type TestApp } from './harness.ts';
import { chunkPlan, multipartBody, type UploadSpec } from './upload-client.ts';

/** Builder: a folder at `currentDirectory/name` of the token's user; its id. */
export async function makeFolder(
  t: TestApp,
  token: string,
  currentDirectory: string,
  name: string,
): Promise<string> {
  const res = await call<{ id: string }>(t.app, 'POST', '/new_folder', {
    token,
    query: { currentDirectory, filename: name },
  });
  if (res.body.code !== 0) throw new Error(`new_folder failed: ${res.body.message}`);
  return res.body.data!.id;
}

/** Builder: a share of a file or folder; the owner's view of it. */
export async function makeShare(
  t: TestApp,
  token: string,
  body: Record<string, unknown>,
): Promise<ShareView> {
  const res = await call<ShareView>(t.app, 'POST', '/share/generate', { token, body });
  if (res.body.code !== 0) throw new Error(`share/generate failed: ${res.body.message}`);
  return res.body.data!;
}

/** A visitor's share token, from the right code. */
export async function unlock(t: TestApp, shareId: string, code: string): Promise<string> {
  const res = await call<string>(t.app, 'POST', '/public/valid-share-code', {
    body: { shareId, shareCode: code },
  });
  if (res.body.code !== 0) throw new Error(`valid-share-code failed: ${res.body.message}`);
  return res.body.data!;
}

/** What a visitor sends: the share id and, when it has one, the share token (spec §6). */
export function visitor(shareId: string, shareToken?: string) {
  return { 'share-token': shareToken ?? '', shareid: shareId };
}

export interface RawResult {
  status: number;
  body: string;
  json: { code: number; message: string; data?: unknown } | null;
  headers: Record<string, unknown>;
}

/** A GET returning bytes or an envelope. */
export async function raw(
  t: TestApp,
  url: string,
  headers: Record<string, string> = {},
): Promise<RawResult> {
  const res = await t.app.inject({ method: 'GET', url: `/api${url}`, headers });
  let json: RawResult['json'] = null;
  try {
    json = res.json();
  } catch {
    json = null;
  }
  return { status: res.statusCode, body: res.body, json, headers: res.headers };
}

/** The chunk protocol against the public endpoints, as the share page speaks it. */
export async function publicUpload(
  t: TestApp,
  headers: Record<string, string>,
  spec: UploadSpec,
): Promise<{
  failed: CallResult | null;
  merged: CallResult<{ upload: boolean; file?: { id: string; name: string; path: string } }> | null;
}> {
  const { base, chunks } = chunkPlan(spec);
  for (const c of chunks) {
    const fields = { ...base, chunkNumber: c.chunkNumber, currentChunkSize: c.currentChunkSize };
    const test = await call<{ pass: boolean; resume: number[] }>(t.app, 'GET', '/public/upload', {
      headers,
      query: fields,
    });
    if (test.body.code !== 0) return { failed: test, merged: null };
    if (test.body.data!.resume.includes(c.chunkNumber)) continue;
    const { payload, contentType } = multipartBody(fields, c.bytes, spec.name);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/public/upload',
      payload,
      headers: { ...headers, 'content-type': contentType },
    });
    const body = res.json<CallResult['body']>();
    if (body.code !== 0)
      return { failed: { status: res.statusCode, body, headers: res.headers }, merged: null };
  }
  const merged = await call<{ upload: boolean; file?: { id: string; name: string; path: string } }>(
    t.app,
    'POST',
    '/public/merge',
    { headers, query: base },
  );
  return { failed: merged.body.code === 0 ? null : merged, merged };
}
