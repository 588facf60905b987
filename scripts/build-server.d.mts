/** The bundle `npm start` runs. */
export declare const serverBundle: string;
export declare function serverBuildIsStale(): boolean;
export declare function buildServer(): Promise<void>;
/** Build the bundle when it is missing or older than its sources; resolves to its path. */
export declare function ensureServerBuild(): Promise<string>;
