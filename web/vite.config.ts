import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.NIMBUS_API_URL ?? 'http://localhost:8088';

/** Vendor libraries each get a long-lived chunk, so an app release does not bust their cache. */
const vendorGroups = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
  { name: 'antd-icons', test: /node_modules[\\/]@ant-design[\\/](icons|icons-svg)[\\/]/ },
  {
    name: 'antd',
    test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[^\\/]+|@babel[\\/]runtime)[\\/]/,
  },
  { name: 'vendor', test: /node_modules[\\/]/ },
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
