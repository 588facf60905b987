import type { TFunction } from 'i18next';
import type en_US from '../i18n/en_US';

export type RouteTitleKey = keyof (typeof en_US)['routes'];

/** `handle` of a route: its title key (namespace `routes`) and section. */
export interface RouteHandle {
  title?: RouteTitleKey;
  section?: 'settings';
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null;
}

export function routeTitle(t: TFunction<'routes'>, key: RouteTitleKey): string {
  return t(key);
}
