import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { currentDevice } from './stores/device';
import './app/global.css';
import { queryClient } from './api/query-client';
import { createRouter } from './app/router';
import { prefetchFirstPage } from './api/account';
import { startLanguage } from './i18n';
import { useAppStore } from './stores/app';

// The device is known before the first route is matched (spec §2 mobile redirects).
useAppStore.getState().setDevice(currentDevice());

const router = createRouter();
prefetchFirstPage(queryClient);

const draw = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );

// the remembered language's texts come first, so a Chinese page never flashes English
void startLanguage().finally(draw);
