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
const firstAnswers = prefetchFirstPage(queryClient);

/**
 * How long the first draw waits for the sign-in page's question. It is preloaded with the
 * scripts and usually answered by the time they have run: drawn with the answer, the page goes
 * straight to its form, without a skeleton drawn and laid out first. A slow server gets the
 * skeleton instead.
 */
const FIRST_ANSWER_WAIT_MS = 300;
const shortly = new Promise<void>((resolve) => setTimeout(resolve, FIRST_ANSWER_WAIT_MS));

const draw = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );

// the remembered language's texts come first, so a Chinese page never flashes English
void Promise.all([startLanguage(), Promise.race([firstAnswers, shortly])]).finally(draw);
