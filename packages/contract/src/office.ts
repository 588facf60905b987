import { z } from 'zod';
import { bareAnswer, endpoint } from './endpoint.ts';
import { publicShareQuery } from './share.ts';
import { queryNumber } from './validation.ts';

// Office documents (API-NOTES §1.6, §1.12 OnlyOffice, §1.15, §1.8 office history): the PDF a
// document is shown as, and the OnlyOffice document server's settings, signature and callback.

/** Suffixes LibreOffice turns into a PDF for viewing. */
export const OFFICE_SUFFIXES = [
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'odt',
  'ods',
  'odp',
  'rtf',
] as const;

/** What a conversion may take before it is stopped (a document that never finishes). */
export const OFFICE_CONVERT_TIMEOUT_MS = 120_000;
/** Office files larger than this are not converted. */
export const OFFICE_CONVERT_MAX_BYTES = 200 * 1024 * 1024;
/** A DocsAPI configuration to sign: small JSON. */
export const OFFICE_SIGNATURE_MAX_CHARS = 64 * 1024;

/** Suffixes that open in OnlyOffice when an administrator configured a document server. */
export const ONLYOFFICE_DEFAULT_FORMATS = [
  'doc',
  'docx',
  'odt',
  'rtf',
  'xls',
  'xlsx',
  'ods',
  'csv',
  'ppt',
  'pptx',
  'odp',
] as const;

/** The secret as GET /office/config shows it: set or not, never what it is. */
export const MASKED_SECRET = '******';

const id = z.string().max(128);
const address = z.string().trim().max(2048);

// ---- requests -------------------------------------------------------------------------------

/** `GET /preview/office?id=`: the owner's (or a mounter's) office file as a PDF. */
export const officeQuery = z.object({ id: id.optional(), fileId: id.optional() }).passthrough();

/** The visitors' twin: `/public/s/preview/office?id&shareId&share-token`. */
export const publicOfficeQuery = publicShareQuery.extend({
  id: id.optional(),
  fileId: id.optional(),
  path: z.string().max(4096).optional(),
});

/** `PUT /office/config`: the document server's address, its JWT secret and Nimbus's API address. */
export const officeConfigBody = z.object({
  documentServer: address.refine((v) => v === '' || /^https?:\/\//i.test(v), {
    message: 'an http(s) address',
  }),
  /** Blank: no JWT. The masked value keeps the secret that is set. */
  secret: z.string().max(512).optional(),
  /** The API address the document server calls back, such as `http://nimbus:8088/api`. */
  callbackServer: address
    .refine((v) => v === '' || /^https?:\/\//i.test(v), { message: 'an http(s) address' })
    .optional(),
  format: z
    .array(
      z
        .string()
        .trim()
        .max(16)
        .regex(/^[a-z0-9]+$/i),
    )
    .max(100)
    .optional(),
});
export type OfficeConfigInput = z.infer<typeof officeConfigBody>;

/** `POST /public/office/signature?shareId&shareToken`, `GET /public/office/config`. */
export const publicOfficeShareQuery = publicShareQuery.extend({
  shareToken: z.string().max(2048).optional(),
});

/**
 * The signature of an address Nimbus hands the document server (`/office/file`,
 * `/office/track`): made for one file (and version) and one user, until `expires` (epoch ms).
 */
const officeLink = {
  user: id.optional(),
  expires: queryNumber(z.number().int().min(0)).optional(),
  signature: z.string().max(128).optional(),
};

/**
 * `POST /office/track?fileId=&user=&expires=&signature=`: where the document server calls
 * back. The `nimbus-token` form of older editors is still read (and masked in the log); Nimbus
 * makes no such address any more.
 */
export const officeTrackQuery = z
  .object({ fileId: id, ...officeLink, 'nimbus-token': z.string().max(2048).optional() })
  .passthrough();

/** `GET /office/file?fileId=&id=&user=&expires=&signature=`: a document's bytes (or a version's). */
export const officeFileQuery = z.object({ fileId: id, id: id.optional(), ...officeLink });

/** `GET /office/editor?fileId=&lang=`: the signed DocsAPI configuration of one's document. */
export const officeEditorQuery = z.object({
  fileId: id,
  lang: z
    .string()
    .max(16)
    .regex(/^[a-zA-Z_-]+$/)
    .optional(),
});

/** `GET /office/version?fileId=&id=&version=`: the signed data of one version for the editor. */
export const officeVersionQuery = z.object({
  fileId: id,
  /** A kept version; none: the current bytes. */
  id: id.optional(),
  version: queryNumber(z.number().int().min(1).max(1_000_000)),
});

/** The document server's callback body (its "track" request). */
export const officeTrackBody = z
  .object({
    key: z.string().max(256).optional(),
    status: queryNumber(z.number().int().min(0).max(10)).optional(),
    url: z.string().max(4096).optional(),
    changesurl: z.string().max(4096).optional(),
    users: z.array(z.string().max(256)).max(1000).optional(),
    forcesavetype: z.number().int().optional(),
    token: z.string().max(OFFICE_SIGNATURE_MAX_CHARS).optional(),
  })
  .passthrough();

/** `POST /office/signature`, `/public/office/signature`: a DocsAPI configuration to sign (any
 * JSON object, checked by the service). */
export const officeSignatureBody = z.record(z.string(), z.unknown());

/** `GET /history/office/list?fileId&pageSize&pageIndex`. */
export const officeHistoryQuery = z.object({
  fileId: id,
  pageIndex: queryNumber(z.number().int().min(1)).optional(),
  pageSize: queryNumber(z.number().int().min(1).max(1000)).optional(),
});

// ---- answers --------------------------------------------------------------------------------

export const officeConfigView = z.object({
  documentServer: z.string(),
  callbackServer: z.string(),
  /** Whether a JWT secret is set (the document server then checks every request). */
  tokenEnabled: z.boolean(),
  format: z.array(z.string()),
  /** MASKED_SECRET when a secret is set, '' when none. */
  secret: z.string(),
});
export type OfficeConfigView = z.infer<typeof officeConfigView>;

/** What a share's visitor learns: where the document server is, never the secret. */
export const publicOfficeConfigView = officeConfigView.omit({ secret: true });
export type PublicOfficeConfigView = z.infer<typeof publicOfficeConfigView>;

/** Where the OnlyOffice document server is: every signed-in person reads it to open documents. */
export const officeConfigApi = {
  config: endpoint({
    method: 'GET',
    path: '/office/config',
    answer: officeConfigView,
    access: 'user',
  }),
  /** Administrators. */
  setConfig: endpoint({
    method: 'PUT',
    path: '/office/config',
    body: officeConfigBody,
    answer: officeConfigView,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
};

/** A DocsAPI configuration (or a version's data), with its JWT when a secret is set. */
export const officeEditorConfig = z.record(z.string(), z.unknown());
export type OfficeEditorConfig = z.infer<typeof officeEditorConfig>;

/** The reply the document server expects from its callback. */
export const officeTrackAnswer = z.object({ error: z.number().int() });

/** One version in OnlyOffice's history shape. */
export const officeHistoryEntry = z.object({
  key: z.string(),
  version: z.number().int(),
  created: z.string(),
  user: z.object({ id: z.string(), name: z.string() }),
});
export const officeHistory = z.object({
  currentVersion: z.number().int(),
  history: z.array(officeHistoryEntry),
});
export type OfficeHistory = z.infer<typeof officeHistory>;

/**
 * A document as the signed-in person (or a mounter) works on it: the PDF it is viewed as, the
 * OnlyOffice editor's signed configuration, its versions, and the addresses and callback the
 * document server calls, signed for one file and user (so they are `public`).
 */
export const officeApi = {
  /** The PDF an office file is viewed as (pdf.js fetches it: the cookie signs it in). */
  pdf: endpoint({
    method: 'GET',
    path: '/preview/office',
    query: officeQuery,
    answer: 'bytes',
    access: 'user',
    cookieAuth: true,
  }),
  /** A DocsAPI configuration signed with the document server's secret. */
  signature: endpoint({
    method: 'POST',
    path: '/office/signature',
    body: officeSignatureBody,
    answer: z.string(),
    access: 'user',
  }),
  /** The editor's configuration of one's document, its addresses signed for this file and user. */
  editor: endpoint({
    method: 'GET',
    path: '/office/editor',
    query: officeEditorQuery,
    answer: officeEditorConfig,
    access: 'user',
  }),
  /** The signed data of one version for the editor's history. */
  version: endpoint({
    method: 'GET',
    path: '/office/version',
    query: officeVersionQuery,
    answer: officeEditorConfig,
    access: 'user',
  }),
  /** The versions of a document in OnlyOffice's history shape. */
  history: endpoint({
    method: 'GET',
    path: '/history/office/list',
    query: officeHistoryQuery,
    answer: officeHistory,
    access: 'user',
  }),
  /** A document's bytes (or a version's), fetched by the document server at a signed address. */
  file: endpoint({
    method: 'GET',
    path: '/office/file',
    query: officeFileQuery,
    answer: 'bytes',
    access: 'public',
  }),
  /**
   * The document server's save callback, at the signed address of the editor's configuration
   * (its JWT checked by the service); it answers `{ "error": 0 }`, no envelope.
   */
  track: endpoint({
    method: 'POST',
    path: '/office/track',
    query: officeTrackQuery,
    body: officeTrackBody,
    answer: bareAnswer(officeTrackAnswer),
    access: 'public',
  }),
};

/** What a share's visitor needs to open a shared document in OnlyOffice. */
export const officeVisitorApi = {
  /** Where the document server is (never the secret). */
  config: endpoint({
    method: 'GET',
    path: '/public/office/config',
    query: publicOfficeShareQuery,
    answer: publicOfficeConfigView,
    access: 'public',
  }),
  /** A DocsAPI configuration of a shared document, signed. */
  signature: endpoint({
    method: 'POST',
    path: '/public/office/signature',
    query: publicOfficeShareQuery,
    body: officeSignatureBody,
    answer: z.string(),
    access: 'public',
  }),
};
