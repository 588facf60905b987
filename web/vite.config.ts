import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.NIMBUS_API_URL ?? 'http://localhost:8088';

/**
 * React and the small vendor libraries get long-lived chunks, so an app release does not bust
 * their cache. antd is left to the bundler: its heavy parts (tables, trees, uploads) then load
 * with the settings pages that use them instead of on the first visit.
 */
const vendorGroups = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
  { name: 'vendor', test: /node_modules[\\/](?!antd|@ant-design|@rc-component)/ },
];

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/webdav': { target: apiTarget, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/webdav': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: vendorGroups.map((group, index) => ({
            ...group,
            priority: vendorGroups.length - index,
          })),
        },
      },
    },
  },
});
