import type { Generated } from 'kysely';

/** Flags are stored as 0/1 integers and times as epoch milliseconds on both dialects. */
export type Flag = 0 | 1;

export interface UserTable {
  id: string;
  username: string;
  showName: string;
  passwordHash: string;
  avatar: string | null;
  slogan: string | null;
  introduction: string | null;
  quotaGb: number;
  usedBytes: number;
  isCreator: Flag;
  /** The TOTP secret, encrypted with the drive's key (mfa.service.ts). */
  mfaSecret: string | null;
  mfaEnabled: Flag;
  /** JSON list of the SHA-256 of the unused recovery codes. */
  mfaRecovery: string | null;
  /** The last TOTP time step accepted: a code works once. */
  mfaLastStep: number | null;
  /** 'local' (a password hash here) or 'ldap' (signs in against the directory). */
  authSource: Generated<string>;
  theme: string;
  passwordChangedAt: number;
  createdAt: number;
  updatedAt: number;
  /**
   * 0; or n for the n-th later of accounts created, before usernames were unique regardless of
   * case, with names differing only in case (the index on lower(username) includes it).
   */
  caseTwin: Generated<number>;
}

export interface AccessTokenTable {
  id: string;
  userId: string;
  name: string;
  /** SHA-256 of the token; the token itself is shown once and never stored. */
  tokenHash: string;
  createdAt: number;
  lastActiveAt: number | null;
  /** What it may do: `read`, `readWrite` or `webdav` (AccessTokenScope). */
  scope: string;
  /** When it stops working; null: never. */
  expiresAt: number | null;
}

export interface MfaChallengeTable {
  /** SHA-256 of the challenge token given to the browser. */
  id: string;
  userId: string;
  /** 'verify' (a code for an enrolled account) or 'enrol' (forced enrolment). */
  purpose: string;
  remember: Flag;
  attempts: Generated<number>;
  expiresAt: number;
}

export interface SessionTable {
  /** SHA-256 of the token; the token itself is never stored. */
  id: string;
  userId: string;
  remember: Flag;
  createdAt: number;
  expiresAt: number;
  lastSeenAt: number;
  revokedAt: number | null;
  userAgent: string | null;
  ip: string | null;
}

export interface RoleTable {
  id: string;
  name: string;
  code: string;
  remarks: string | null;
  builtin: Flag;
  createdAt: number;
}

export interface MenuTable {
  id: string;
  parentId: string | null;
  name: string;
  authority: string | null;
  path: string | null;
  component: string | null;
  icon: string | null;
  sortNumber: number;
  menuType: number;
  hide: Flag;
  builtin: Flag;
  createdAt: number;
}

export interface RoleMenuTable {
  roleId: string;
  menuId: string;
}

export interface UserRoleTable {
  userId: string;
  roleId: string;
}

export interface SettingTable {
  key: string;
  value: string;
  updatedAt: number;
}

/** Guesses of a secret under one key (see modules/auth/attempt-limiter.ts). */
export interface LoginAttemptTable {
  key: string;
  attempts: number;
  /** When the last attempt was counted. */
  lastAt: number;
}

export interface FileTable {
  id: string;
  userId: string;
  parentId: string;
  name: string;
  path: string;
  isFolder: Flag;
  size: number;
  contentType: string;
  suffix: string;
  fileType: string;
  hash: string | null;
  uploadDate: number;
  updateDate: number;
  isFavorite: Flag;
  media: string | null;
  childrenCount: number;
  trashId: string | null;
  trashedAt: number | null;
}

export interface FileOpTable {
  id: string;
  userId: string;
  kind: string;
  fromPath: string;
  toPath: string;
  createdAt: number;
  /** Space the operation holds until it commits (counted against the quota). */
  bytes: Generated<number>;
  /** The node doing it (`db/presence.ts`); null: recorded before nodes were named. */
  node: string | null;
}

export interface JobTable {
  id: string;
  /** Null for system jobs. */
  userId: string | null;
  type: string;
  name: string;
  path: string;
  /** JSON text. */
  payload: string;
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  progress: number;
  message: string | null;
  attempts: number;
  /** Not run before this time (retry back-off, delayed jobs). */
  runAt: number;
  /** The node running it, and until when its claim holds unless renewed. */
  workerId: string | null;
  leaseUntil: number | null;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** At most one queued or running job of a type has a key (see migration 018). */
  dedupeKey: Generated<string | null>;
}

export interface UploadSessionTable {
  id: string;
  userId: string;
  identifier: string;
  filename: string;
  targetPath: string;
  totalSize: number;
  chunkSize: number;
  totalChunks: number;
  lastModified: number | null;
  /** uploading | merging | done | failed */
  state: string;
  message: string | null;
  fileId: string | null;
  /** The background task merging a large upload, while it runs. */
  jobId: string | null;
  /** Set when a share visitor started the upload: the share and the visitor's address. */
  shareId: string | null;
  visitor: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface UploadChunkTable {
  sessionId: string;
  number: number;
  /** 0 while a request writes the chunk (it holds the claim), 1 once its bytes are written. */
  done: Generated<number>;
  /** The node whose request holds the claim; null: claimed before nodes were named. */
  node: string | null;
}

export interface ShareTable {
  id: string;
  shortId: string;
  userId: string;
  fileId: string;
  isPrivacy: Flag;
  code: string | null;
  /** Null: permanent. */
  expiresAt: number | null;
  allowDownload: Flag;
  canUpload: Flag;
  canEdit: Flag;
  canDelete: Flag;
  views: number;
  downloads: number;
  createdAt: number;
  updatedAt: number;
}

export interface MountTable {
  id: string;
  /** The mounter. */
  userId: string;
  shareId: string;
  /** The mounter's folder the mount sits in: '0' is the root. */
  parentId: string;
  name: string;
  createdAt: number;
}

export interface TagTable {
  id: string;
  userId: string;
  name: string;
  /** A hex colour such as #f56c6c. */
  color: string;
  sort: number;
  createdAt: number;
  updatedAt: number;
}

export interface FileTagTable {
  fileId: string;
  tagId: string;
  userId: string;
  createdAt: number;
}

export interface SearchHistoryTable {
  id: string;
  userId: string;
  keyword: string;
  createdAt: number;
}

export interface SearchUserTable {
  userId: string;
  slot: number;
  nextSeq: number;
}

export interface SearchDocTable {
  /** slot << 36 | sequence: the row id of the full-text tables. */
  docKey: number;
  fileId: string;
  userId: string;
  name: string;
  nameNorm: string;
  live: Flag;
  state: string;
  contentHash: string | null;
  claimedAt: number | null;
  message: string | null;
  updatedAt: number;
}

export interface SearchContentTable {
  docKey: number;
  chunk: number;
  body: string;
}

export interface DavLockTable {
  token: string;
  userId: string;
  path: string;
  deep: Flag;
  exclusive: Flag;
  owner: string | null;
  timeoutSeconds: number;
  expiresAt: number;
}

export interface DavPropertyTable {
  fileId: string;
  name: string;
  value: string;
}

export interface FileVersionTable {
  id: string;
  fileId: string;
  userId: string;
  filename: string;
  path: string;
  size: number;
  storedSize: number;
  hash: string | null;
  compression: string;
  operator: string;
  createdAt: number;
}

export interface DocumentDraftTable {
  fileId: string;
  userId: string;
  contentText: string;
  baseHash: string | null;
  updatedAt: number;
}

export interface AuditEntryTable {
  id: string;
  at: number;
  userId: string | null;
  username: string;
  action: string;
  target: string | null;
  ip: string;
  ok: number;
}

export interface TranscodeFailureTable {
  fileId: string;
  hash: string;
  reason: 'failed' | 'cancelled';
  message: string | null;
  at: number;
}

export interface Database {
  user: UserTable;
  session: SessionTable;
  accessToken: AccessTokenTable;
  mfaChallenge: MfaChallengeTable;
  role: RoleTable;
  menu: MenuTable;
  roleMenu: RoleMenuTable;
  userRole: UserRoleTable;
  setting: SettingTable;
  loginAttempt: LoginAttemptTable;
  job: JobTable;
  file: FileTable;
  fileOp: FileOpTable;
  uploadSession: UploadSessionTable;
  uploadChunk: UploadChunkTable;
  share: ShareTable;
  mount: MountTable;
  tag: TagTable;
  fileTag: FileTagTable;
  searchHistory: SearchHistoryTable;
  searchUser: SearchUserTable;
  searchDoc: SearchDocTable;
  searchContent: SearchContentTable;
  davLock: DavLockTable;
  davProperty: DavPropertyTable;
  fileVersion: FileVersionTable;
  documentDraft: DocumentDraftTable;
  auditEntry: AuditEntryTable;
  transcodeFailure: TranscodeFailureTable;
}
