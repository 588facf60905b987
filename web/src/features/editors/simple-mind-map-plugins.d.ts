// The mind-map widget's plugins ship without type declarations; they are only handed to
// MindMap.usePlugin.
declare module 'simple-mind-map/src/plugins/*.js' {
  const plugin: unknown;
  export default plugin;
}
