/** The shape of a locale: the same keys as the English tree, every leaf a string. */
export type LocaleTree<T> = { [K in keyof T]: T[K] extends string ? string : LocaleTree<T[K]> };
