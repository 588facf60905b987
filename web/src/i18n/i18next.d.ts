import 'i18next';
import type en_US from './en_US';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: typeof en_US;
    returnNull: false;
  }
}
