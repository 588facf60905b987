/** antd's providers (and so antd's core), fetched once: for code that must not carry antd. */
export const loadAntdProviders = () => import('./AntdProviders');
