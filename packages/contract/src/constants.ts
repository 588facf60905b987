/** Product facts and limits from the spec, in one place. */
export const PRODUCT_VERSION = '2.16.1'; // spec §1
export const TOKEN_HEADER = 'nimbus-token'; // spec §7: {product}-token
export const DEFAULT_DRIVE_NAME = 'Nimbus';

export const DEFAULT_CHUNK_SIZE = 1048576; // spec §9
export const MAX_CHUNK_SIZE = 64 * 1024 * 1024;
export const MAX_CHUNK_RETRIES = 3; // spec §9
export const SIMULTANEOUS_UPLOADS = 3; // spec §9
export const UPLOAD_PARAMS_TIMEOUT_MS = 3000; // spec §9
export const DRAG_OVERLAY_CLEAR_MS = 100; // spec §9

export const REQUEST_TIMEOUT_MS = 50000; // spec §7
export const EVENT_RECONNECT_MS = 5000; // spec §9
export const ERROR_TOAST_THROTTLE_MS = 3000; // spec §9
export const TASK_BUTTON_HIDE_MS = 5000; // spec §9

/**
 * The `operationTips` operation told when trash items older than the retention setting went by
 * themselves: the trash view reloads, and no notice shows (nobody asked just now).
 */
export const TRASH_EXPIRY_OPERATION = 'expire-trash';

export const PAGE_SIZES = [20, 30, 50, 100] as const; // spec §9
/** Most rows one listing request answers (`/list` pageSize). */
export const MAX_LIST_PAGE_SIZE = 1000;
/**
 * Most ids one request carries in a JSON or form body (a query string holds a few hundred):
 * 250,000 ids fit the 10 MiB body limit.
 */
export const MAX_IDS_PER_REQUEST = 250_000;
export const HISTORY_PAGE_SIZE = 20; // spec §9
export const MOBILE_BREAKPOINT = 992; // spec §9
export const SIDEBAR_WIDTH = 160; // spec §9
export const DESIGN_WIDTH = 1920; // spec §9
export const MIN_DESKTOP_WIDTH = 1366; // spec §9
export const LOGO_MAX_BYTES = 128 * 1024; // spec §5
export const DEFAULT_TAG_COLOR = '#f56c6c'; // spec §9

export const PASSWORD_MIN_LENGTH = 6; // spec §5
export const PASSWORD_MAX_LENGTH = 128;
export const USERNAME_MAX_LENGTH = 32;
/** A user's display name, as the administrator's form and the profile page accept it. */
export const SHOW_NAME_MAX_LENGTH = 64;
/** The quota of a new user when the administrator gives none (`NIMBUS_DEFAULT_QUOTA_GB`). */
export const DEFAULT_QUOTA_GB = 10;
/** The largest quota the administrator may give a user, in GB (1 PB). */
export const QUOTA_MAX_GB = 1024 * 1024;
/** A role's and a menu's name. */
export const ROLE_NAME_MAX_LENGTH = 64;
export const MENU_NAME_MAX_LENGTH = 64;
/** A role's remarks. */
export const ROLE_REMARKS_MAX_LENGTH = 500;
/** What a role's code is: it names the role in authorities and in LDAP's default roles. */
export const ROLE_CODE_PATTERN = /^[a-zA-Z][a-zA-Z0-9_-]{0,31}$/;
/** The name an access token is given by its owner. */
export const ACCESS_TOKEN_NAME_MAX_LENGTH = 64;
/** Usernames become directory names: letters, digits, `_`, `-`, `.` not leading. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,31}$/;

/** Quota steps where the sidebar bar changes colour (spec §4). */
export const QUOTA_COLOR_STEPS = [20, 40, 60, 80, 100] as const;

export const THEMES = ['auto', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
export const LANGUAGES = ['en_US', 'zh_CN'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en_US';

/** Menu types (spec §2 Navigation rules). */
export const MenuType = {
  MAIN: 0,
  SKIPPED: 1,
  SECTION: 2,
  TOP_BAR: 3,
  AVATAR: 4,
} as const;

/** Most bytes (UTF-8) of one file or folder name: what every disk and archive format holds. */
export const MAX_NAME_BYTES = 255;
/**
 * Most bytes (UTF-8) of an item's whole path in a user's tree (`/a/b/c.txt`): with the storage
 * folder in front it stays well inside the 4,096 bytes a path on disk may have.
 */
export const MAX_PATH_BYTES = 3000;
/** Most folders one above another in a path. */
export const MAX_PATH_DEPTH = 100;
/** Most levels of `{}`/`[]` nesting a JSON body may have. */
export const MAX_JSON_DEPTH = 64;
