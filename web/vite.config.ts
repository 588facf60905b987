import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from './build/precompress';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * pdf.js's character maps, standard fonts and decoders, served beside the bundled PDF viewer
 * page (`/pdf.js/…`): nothing of a viewer comes from another site.
 */
function pdfjsAssets(): Plugin {
  const pdfjs = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  return {
    name: 'nimbus-pdfjs-assets',
    apply: 'build',
    writeBundle(options) {
      const out = options.dir ?? path.join(here, 'dist');
      for (const folder of ['cmaps', 'standard_fonts', 'wasm'])
        fs.cpSync(path.join(pdfjs, folder), path.join(out, 'pdf.js', folder), { recursive: true });
    },
  };
}

/**
 * Vditor's scripts (the lute renderer, its languages, highlighting, content themes), served by
 * Nimbus at `/vditor/dist/…` in place of a CDN: the markdown editor works offline.
 */
function vditorAssets(): Plugin {
  const dist = path.join(
    path.dirname(createRequire(import.meta.url).resolve('vditor/package.json')),
    'dist',
  );
  return {
    name: 'nimbus-vditor-assets',
    configureServer(server) {
      server.middlewares.use('/vditor/dist', (req, res, next) => {
        const file = path.join(dist, decodeURIComponent((req.url ?? '/').split('?')[0]!));
        if (!file.startsWith(dist + path.sep) || !fs.existsSync(file)) return next();
        fs.createReadStream(file).pipe(res);
      });
    },
    writeBundle(options) {
      const out = options.dir ?? path.join(here, 'dist');
      fs.cpSync(dist, path.join(out, 'vditor', 'dist'), {
        recursive: true,
        filter: (from) => !from.endsWith('.d.ts') && !from.endsWith('.map'),
      });
    },
  };
}

const apiTarget = process.env.NIMBUS_API_URL ?? 'http://localhost:8088';

/** The package a module belongs to: the innermost `node_modules/<name>` of its path. */
const packageOf = (id: string) =>
  /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/
    .exec(id.slice(id.lastIndexOf('node_modules')))?.[1]
    ?.replace('\\', '/');

/**
 * The small libraries the sign-in page needs (queries, translations, stores, dates) share one
 * long-lived chunk, so an app release does not bust their cache. Everything else (antd, its
 * style engine and rc-* parts, the icons, the hasher, highlighting, video streaming, zod) is
 * left to the bundler, which puts it with the pages that use it: the sign-in page is drawn
 * without antd, so none of it is on the first visit.
 */
const sharedVendor = new Set([
  '@tanstack/react-query',
  '@tanstack/query-core',
  'i18next',
  'react-i18next',
  'zustand',
  'dayjs',
  'use-sync-external-store',
]);

/**
 * The shell's own small modules that every page loads (the API client, the session and menu
 * queries, live events, the theme and navigation helpers), with what they import: one chunk for
 * the first visit instead of a dozen that each cost a request and compress worse alone.
 */
const shellModule =
  /[\\/]src[\\/](lib[\\/](navigation|color-scheme|theme|menus|route-meta|feedback|task-progress-role)|api[\\/](account|branding|events|client|query-string))\.tsx?$/;

const vendorGroups = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
  { name: 'vendor', test: (id: string) => sharedVendor.has(packageOf(id) ?? '') },
  { name: 'shell', test: shellModule },
];

export default defineConfig({
  plugins: [react(), pdfjsAssets(), vditorAssets(), precompress()],
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
      // the contract's schemas are module-level zod calls: pure, so a page that imports only a
      // constant from the contract does not carry zod
      treeshake: { manualPureFunctions: ['z'] },
      // the app, and the viewer pages at the Preview Config's built-in addresses (API-NOTES §1.12)
      input: {
        main: path.join(here, 'index.html'),
        pdf: path.join(here, 'pdf.js/web/viewer.html'),
        epub: path.join(here, 'resource/epubjs/viewer.html'),
        onlyoffice: path.join(here, 'resource/onlyoffice/editor.html'),
      },
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
