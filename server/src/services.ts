import { AuditService } from './modules/audit/audit.service.ts';
import { HistoryService } from './modules/history/history.service.ts';
import { MarkdownService } from './modules/markdown/markdown.service.ts';
import path from 'node:path';
import type { Config } from './config.ts';
import type { DbHandle } from './db/index.ts';
import { AccessTokenService } from './modules/auth/access-token.service.ts';
import { MfaService } from './modules/auth/mfa.service.ts';
import { LdapService } from './modules/auth/ldap.service.ts';
import { SecretBox } from './lib/secret-box.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { SessionService } from './modules/auth/session.service.ts';
import { AttemptLimiter } from './modules/auth/attempt-limiter.ts';
import { MenusService } from './modules/menus/menus.service.ts';
import { SettingsService } from './modules/settings/settings.service.ts';
import { UsersService } from './modules/users/users.service.ts';
import { UpdateCheckService } from './modules/health/update-check.service.ts';
import { InProcessEventBus, type EventBus, type EventType } from './events/bus.ts';
import { EventStreams } from './events/event-streams.ts';
import { RedisEventBus } from './events/redis-bus.ts';
import { createLocks } from './lib/locks.ts';
import { DbJobQueue } from './jobs/db-queue.ts';
import type { JobQueue } from './jobs/queue.ts';
import { TasksService } from './modules/tasks/tasks.service.ts';
import { FilesService } from './modules/files/files.service.ts';
import { FileOperations } from './modules/files/file-ops.service.ts';
import { TrashService } from './modules/files/trash.service.ts';
import { ExtractService } from './modules/files/extract.service.ts';
import { SyncService } from './modules/files/sync.service.ts';
import { DownloadService } from './modules/files/download.service.ts';
import { TreeIndexer } from './modules/files/tree-index.ts';
import { LocalStore } from './storage/local-store.ts';
import { UploadService } from './modules/upload/upload.service.ts';
import { registerFileJobs } from './modules/files/files.jobs.ts';
import { registerUploadJobs } from './modules/upload/upload.jobs.ts';
import { ShareTokens } from './modules/share/share-token.ts';
import { ShareAccess } from './modules/share/share-access.ts';
import { ShareCodeThrottle } from './modules/share/share-code-throttle.ts';
import { ShareService } from './modules/share/share.service.ts';
import { ShareBrowseService } from './modules/share/share-browse.service.ts';
import { MountService } from './modules/share/mount.service.ts';
import { ShareVisitorService } from './modules/share/share-visitor.service.ts';
import { Ocr } from './modules/search/content/ocr.ts';
import { OcrSettings } from './modules/search/ocr-settings.ts';
import { SearchHistoryRepo } from './modules/search/search-history.repo.ts';
import { SearchIndexer } from './modules/search/search-index.ts';
import { registerSearchJobs } from './modules/search/search.jobs.ts';
import { PostgresSearchRepo } from './modules/search/search.postgres.ts';
import { SqliteSearchRepo } from './modules/search/search.sqlite.ts';
import { SearchService } from './modules/search/search.service.ts';
import { TagsService } from './modules/tags/tags.service.ts';
import { ImagesService } from './modules/images/images.service.ts';
import { ImageFinder } from './modules/images/image-access.ts';
import { ImageFactsReader } from './modules/images/image-facts.ts';
import { ImageWork } from './modules/images/image-work.ts';
import { AvatarsService } from './modules/images/avatars.service.ts';
import { WebpStorageService } from './modules/images/webp-storage.service.ts';
import { MediaService } from './modules/media/media.service.ts';
import { MediaBytesService } from './modules/media/media-bytes.service.ts';
import { MediaExaminer, mediaCacheKeepers } from './modules/media/media-examiner.ts';
import { TranscodeQueue } from './modules/media/transcode-queue.ts';
import { TranscodeSettings } from './modules/media/transcode-settings.ts';
import { registerMediaJobs } from './modules/media/media.jobs.ts';
import { PreviewService } from './modules/preview/preview.service.ts';
import { OfficeService, officeCacheKeeper } from './modules/office/office.service.ts';
import { CacheService } from './modules/cache/cache.service.ts';
import { DriveCheckService } from './modules/check/drive-check.service.ts';
import { registerCacheJobs } from './modules/cache/cache.jobs.ts';
import { RetentionService } from './modules/retention/retention.service.ts';
import { registerRetentionJobs } from './modules/retention/retention.jobs.ts';
import { imageCacheKeepers } from './modules/images/image-cache-keys.ts';
import { OfficeLinks } from './modules/office/office-links.ts';
import { OfficeSettings } from './modules/office/office-settings.ts';
import { OFFICE_CONVERT_TIMEOUT_MS, OFFICE_SUFFIXES } from '@nimbus/contract';

/** Every service, wired once per app. */
export function createServices(database: DbHandle, config: Config) {
  const { db } = database;
  const settings = new SettingsService(db);
  const audit = new AuditService(db);
  const sessions = new SessionService(db, config);
  // one limiter of guesses: sign-in passwords, current passwords, share codes
  const attempts = new AttemptLimiter(db);
  const updates = new UpdateCheckService({ feed: config.updateFeed });
  const accessTokens = new AccessTokenService(db);
  const users = new UsersService(db, config, sessions, accessTokens, settings, attempts, updates);
  const secrets = SecretBox.open(config.dataDir, config.secretKey);
  const mfa = new MfaService(db, users, users.repo, settings, attempts, secrets);
  const ldap = new LdapService(settings, secrets);
  const auth = new AuthService(users, sessions, attempts, accessTokens, mfa, ldap);
  const menus = new MenusService(db);
  // with Redis, live events reach the clients of every node; without, those of this process
  const events: EventBus = config.redisUrl
    ? new RedisEventBus((id) => users.usage(id), config.redisUrl)
    : new InProcessEventBus((id) => users.usage(id));
  const eventStreams = new EventStreams(events);
  // the locks of decisions across requests: with Redis, every node's; without, this process's
  const locks = createLocks(config.redisUrl);
  const jobs: JobQueue = new DbJobQueue(database, events, {}, (id) => users.usernameOf(id));
  const tasks = new TasksService(jobs);
  const blobs = new LocalStore(config.dataDir);
  const files = new FilesService(
    db,
    blobs,
    (userId, url, body, fileId) =>
      events.publish(userId, { url: url as EventType, body, ...(fileId ? { fileId } : {}) }),
    locks,
    database.presence,
  );
  // the files module's repos, handed to the modules that read or write its tables where no
  // rule of the files service applies (ARCHITECTURE "Tables and who owns them")
  const fileRows = files.repo;
  const folderListing = files.listing;
  const fileSelection = files.selection;
  const trash = new TrashService(files);
  const fileOps = new FileOperations(files, trash, jobs);
  const history = new HistoryService(db, files, fileRows, settings);
  const markdown = new MarkdownService(db, files, fileOps, history);
  const indexer = new TreeIndexer(files);
  const extract = new ExtractService(files, indexer);
  const fileSync = new SyncService(files, jobs, () => users.owners());
  const uploads = new UploadService(db, files, fileRows, trash, history, {
    jobs,
    backgroundMergeBytes: config.backgroundMergeBytes,
    mergeWaitMs: config.mergeWaitMs,
    locks,
  });
  const shareAccess = new ShareAccess(
    db,
    fileRows,
    users,
    new ShareTokens(settings.repo),
    config.sessionTtlMs,
  );
  const shares = new ShareService(files, fileRows, shareAccess);
  const shareBrowse = new ShareBrowseService(
    files,
    folderListing,
    shareAccess,
    settings,
    new ShareCodeThrottle(attempts),
  );
  const mounts = new MountService(files, fileRows, shareAccess);
  const shareVisitors = new ShareVisitorService(
    shareAccess,
    uploads,
    files,
    fileRows,
    fileOps,
    trash,
    auth,
  );
  const downloads = new DownloadService(files, shareAccess);
  registerFileJobs({ jobs, auth, files, fileOps, indexer });
  registerUploadJobs({ jobs, auth, uploads });
  // the search index's backend: FTS5 on SQLite, tsvector/GIN on PostgreSQL
  const searchRepo =
    database.dialect === 'sqlite' ? new SqliteSearchRepo(db) : new PostgresSearchRepo(db);
  const ocrSettings = new OcrSettings(settings.repo);
  const ocr = new Ocr(path.join(config.dataDir, 'cache'));
  const searchIndex = new SearchIndexer(searchRepo, files, jobs, ocr, ocrSettings, (id) =>
    users.usernameOf(id),
  );
  registerSearchJobs({ jobs, searchIndex });
  const mediaExaminer = new MediaExaminer(files, fileRows);
  const transcodes = new TranscodeQueue(
    db,
    files,
    fileRows,
    jobs,
    new TranscodeSettings(settings.repo),
    mediaExaminer,
    (id) => users.usernameOf(id),
    locks,
  );
  const media = new MediaService(
    fileRows,
    files,
    jobs,
    mediaExaminer,
    transcodes,
    shareAccess,
    (id) => users.usernameOf(id),
  );
  const mediaBytes = new MediaBytesService(files, mediaExaminer, shareAccess);
  registerMediaJobs({ jobs, media, transcodes });
  const tags = new TagsService(db, files, fileRows);
  // one gate of image work for every kind of derived picture
  const imageWork = new ImageWork(() => files.blobs, { parallel: config.imageWorkers });
  const webpStorage = new WebpStorageService(files, fileRows, settings, imageWork);
  const avatars = new AvatarsService(files, fileRows, users, imageWork);
  const images = new ImagesService(
    files,
    fileRows,
    fileSelection,
    new ImageFinder(files, shareAccess, shareVisitors, users),
    new ImageFactsReader(files, fileRows, imageWork),
    imageWork,
    webpStorage,
    users,
  );
  // grid tiles of videos and music show their covers
  images.addCoverSource(
    (row) => row.fileType === 'video' || row.fileType === 'audio',
    async (owner, row) => (await mediaBytes.cover(owner, row))?.place ?? null,
  );
  const preview = new PreviewService(files, shareAccess, settings);
  const office = new OfficeService(
    files,
    fileSelection,
    shareAccess,
    new OfficeSettings(settings.repo, secrets),
    auth,
    history,
    downloads,
    new OfficeLinks(secrets),
    { parallel: 2, timeoutMs: OFFICE_CONVERT_TIMEOUT_MS },
  );
  // a document's tile shows its first page, drawn from the PDF it is viewed as
  const officeSuffixes = new Set<string>(OFFICE_SUFFIXES);
  images.addCoverSource(
    (row) => officeSuffixes.has(row.suffix.toLowerCase()),
    (owner, row) => images.firstPageCover(row, async () => (await office.pdf(owner, row)).place),
  );
  // the caches of derived files: each module says which of its entries are current
  const cache = new CacheService(
    (ids) => files.repo.existing(ids),
    blobs,
    [...imageCacheKeepers, officeCacheKeeper, ...mediaCacheKeepers],
    { maxBytes: config.cacheMaxBytes },
  );
  registerCacheJobs({ jobs, cache });
  const retention = new RetentionService({
    settings,
    trash,
    history,
    audit,
    owners: () => users.owners(),
  });
  registerRetentionJobs({ jobs, retention });
  const driveCheck = new DriveCheckService(db, blobs, jobs);
  driveCheck.register();
  const search = new SearchService(
    searchRepo,
    new SearchHistoryRepo(db),
    files,
    fileRows,
    tags,
    settings,
    searchIndex,
    ocrSettings,
    ocr,
  );
  users.onLifecycle({
    created: (user) => blobs.makeFolder(blobs.folder(user.username, '/')),
    // the rows went with the user (foreign key); the bytes go too
    deleted: async (user) => {
      await blobs.remove(blobs.folder(user.username, '/'));
      await blobs.remove(blobs.trashRoot(user.username));
      await blobs.remove(blobs.versionsRoot(user.id));
    },
  });
  return {
    database,
    db,
    settings,
    updates,
    sessions,
    attempts,
    users,
    auth,
    accessTokens,
    mfa,
    ldap,
    menus,
    blobs,
    files,
    fileRows,
    folderListing,
    fileOps,
    trash,
    extract,
    indexer,
    fileSync,
    downloads,
    uploads,
    events,
    eventStreams,
    locks,
    jobs,
    tasks,
    driveCheck,
    shareAccess,
    shares,
    shareBrowse,
    mounts,
    shareVisitors,
    ocrSettings,
    ocr,
    searchIndex,
    tags,
    search,
    media,
    mediaBytes,
    transcodes,
    images,
    avatars,
    webpStorage,
    preview,
    office,
    cache,
    retention,
    history,
    markdown,
    audit,
  };
}

export type Services = ReturnType<typeof createServices>;
