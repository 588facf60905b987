// The built-in menus and roles live in the contract, where the web app reads their ids too.
export {
  ADMIN_ROLE,
  SEED_MENUS,
  USER_ROLE,
  USER_ROLE_MENUS,
  type SeedMenu,
} from '@nimbus/contract';
