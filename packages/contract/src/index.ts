export * from './errors.ts';
export * from './constants.ts';
export * from './auth.ts';
export * from './users.ts';
export * from './menus.ts';
export * from './format.ts';
export * from './share.ts';
export * from './tags.ts';
