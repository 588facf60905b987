import {
  historyApi,
  officeApi,
  officeConfigApi,
  TOKEN_HEADER,
  type AnswerOf,
  type Endpoint,
  type OfficeHistory,
  type QueryIn,
} from '@nimbus/contract';
import { endpointAddress } from '../../../api/endpoints';
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

/** A GET of the API with the session's token, its `data` as the endpoint's definition says. */
async function apiGet<E extends Endpoint>(
  definition: E,
  query: QueryIn<E>,
  token: string,
): Promise<AnswerOf<E>> {
  const response = await fetch(endpointAddress(definition, query), {
    headers: { [TOKEN_HEADER]: token },
  });
  const body = (await response.json()) as { code: number; message: string; data: AnswerOf<E> };
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
    history = await apiGet(officeApi.history, { fileId }, token);
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
      const kept = entry.version === history.currentVersion ? undefined : entry.key;
      void apiGet(officeApi.version, { fileId, id: kept, version: entry.version }, token).then(
        (data) => input.editor()?.setHistoryData(data),
        () => input.editor()?.setHistoryData({ version: entry.version, error: text('failed') }),
      );
    },
    onRequestHistoryClose: () => window.location.reload(),
    onRequestRestore: (event: { data: { version: number } }) => {
      const entry = history.history.find((candidate) => candidate.version === event.data.version);
      if (!entry || entry.version === history.currentVersion) return;
      void fetch(endpointAddress(historyApi.recover, { id: entry.key, fileId }), {
        method: historyApi.recover.method,
        headers: { [TOKEN_HEADER]: token },
      })
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
    const config = await apiGet(officeConfigApi.config, undefined, token);
    const history = await apiGet(officeApi.history, { fileId: id }, token);
    // the configuration as the server made and signed it
    const lang = useAppStore.getState().lang === 'zh_CN' ? 'zh' : 'en';
    const docs = await apiGet(officeApi.editor, { fileId: id, lang }, token);
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
