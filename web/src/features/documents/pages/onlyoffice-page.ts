import {
  officeConfigApi,
  TOKEN_HEADER,
  type OfficeConfigView,
  type OfficeHistory,
} from '@nimbus/contract';
import { useAppStore } from '../../../stores/app';
import { useSessionStore } from '../../../stores/session';
import { el, startPage, statusLine, text } from './viewer-page';

/**
 * The OnlyOffice editor page (`/resource/onlyoffice/editor.html?id=&name=`): asks the server for
 * the DocsAPI configuration of one of the signed-in user's documents (API-NOTES §1.15), signed,
 * its addresses made for this file and user only (no session token leaves in them), and loads
 * the configured document server's editor, which saves through `/office/track`. The server lets
 * this page alone load scripts from the document server.
 */

/** The editor's calls this page makes (DocsAPI): the history panel's list and one version. */
interface DocEditor {
  refreshHistory(data: Record<string, unknown>): void;
  setHistoryData(data: Record<string, unknown>): void;
}

interface DocsApi {
  DocEditor: new (element: string, config: Record<string, unknown>) => DocEditor;
}

async function apiGet<T>(path: string, token: string): Promise<T> {
  const response = await fetch(`/api${path}`, { headers: { [TOKEN_HEADER]: token } });
  const body = (await response.json()) as { code: number; message: string; data: T };
  if (body.code !== 0) throw new Error(body.message);
  return body.data;
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = el('script', { src });
    script.addEventListener('load', () => resolve());
    script.addEventListener('error', () => reject(new Error(text('failed'))));
    document.head.append(script);
  });
}

/**
 * The editor's history panel (DocsAPI events): the versions Nimbus keeps, each shown from an
 * address the server signs for it (`/office/version`); restoring one goes through
 * `/history/recovery` (the current content is kept as a version first), then the editor opens
 * the restored document afresh.
 */
function historyEvents(input: {
  editor: () => DocEditor | null;
  fileId: string;
  token: string;
  history: OfficeHistory;
}): Record<string, unknown> {
  const { fileId, token } = input;
  let history = input.history;
  const load = async () => {
    history = await apiGet<OfficeHistory>(
      `/history/office/list?fileId=${encodeURIComponent(fileId)}`,
      token,
    );
    return history;
  };
  return {
    onRequestHistory: () => {
      void load().then(
        (fresh) => input.editor()?.refreshHistory({ ...fresh }),
        (err: unknown) => input.editor()?.refreshHistory({ error: (err as Error).message }),
      );
    },
    onRequestHistoryData: (event: { data: number }) => {
      const entry = history.history.find((candidate) => candidate.version === event.data);
      if (!entry) {
        input.editor()?.setHistoryData({ version: event.data, error: text('failed') });
        return;
      }
      const kept =
        entry.version === history.currentVersion ? '' : `&id=${encodeURIComponent(entry.key)}`;
      void apiGet<Record<string, unknown>>(
        `/office/version?fileId=${encodeURIComponent(fileId)}${kept}&version=${entry.version}`,
        token,
      ).then(
        (data) => input.editor()?.setHistoryData(data),
        () => input.editor()?.setHistoryData({ version: entry.version, error: text('failed') }),
      );
    },
    onRequestHistoryClose: () => window.location.reload(),
    onRequestRestore: (event: { data: { version: number } }) => {
      const entry = history.history.find((candidate) => candidate.version === event.data.version);
      if (!entry || entry.version === history.currentVersion) return;
      void fetch(
        `/api/history/recovery?id=${encodeURIComponent(entry.key)}&fileId=${encodeURIComponent(fileId)}`,
        { method: 'PUT', headers: { [TOKEN_HEADER]: token } },
      )
        .then(async (response) => {
          const body = (await response.json()) as { code: number; message: string };
          if (body.code !== 0) throw new Error(body.message);
          window.location.reload();
        })
        .catch((err: unknown) =>
          input.editor()?.refreshHistory({ error: (err as Error).message || text('failed') }),
        );
    },
  };
}

async function main(): Promise<void> {
  const status = statusLine();
  status.show(text('loading'));
  const params = new URLSearchParams(window.location.search);
  const id = params.get('id') ?? '';
  const name = params.get('name') ?? '';
  const { token } = useSessionStore.getState();
  if (!id || !name || !token) {
    status.show(text('noFile'), true);
    return;
  }
  try {
    const config = await apiGet<OfficeConfigView>(officeConfigApi.config.path, token);
    const history = await apiGet<OfficeHistory>(
      `/history/office/list?fileId=${encodeURIComponent(id)}`,
      token,
    );
    // the configuration as the server made and signed it
    const lang = useAppStore.getState().lang === 'zh_CN' ? 'zh' : 'en';
    const docs = await apiGet<Record<string, unknown>>(
      `/office/editor?fileId=${encodeURIComponent(id)}&lang=${lang}`,
      token,
    );
    await loadScript(`${config.documentServer}/web-apps/apps/api/documents/api.js`);
    const api$ = (window as unknown as { DocsAPI?: DocsApi }).DocsAPI;
    if (!api$) throw new Error(text('failed'));
    document.body.append(el('div', { id: 'nb-onlyoffice', class: 'nb-doc-area nb-onlyoffice' }));
    let editor: DocEditor | null = null;
    // the events are functions: they are not part of what is signed
    docs.events = historyEvents({
      editor: () => editor,
      fileId: id,
      token,
      history,
    });
    editor = new api$.DocEditor('nb-onlyoffice', docs);
    status.hide();
  } catch (err) {
    status.show((err as Error).message || text('failed'), true);
  }
}

startPage(main);
