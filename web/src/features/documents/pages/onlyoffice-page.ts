import { TOKEN_HEADER, type OfficeConfigView, type OfficeHistory } from '@nimbus/contract';
import { useAppStore } from '../../../stores/app';
import { useSessionStore } from '../../../stores/session';
import { el, statusLine, text } from './viewer-page';

/**
 * The OnlyOffice editor page (`/resource/onlyoffice/editor.html?id=&name=`): builds the DocsAPI
 * configuration of one of the signed-in user's documents (API-NOTES §1.15), has the server sign
 * it, and loads the configured document server's editor, which saves through `/office/track`.
 * The server lets this page alone load scripts from the document server.
 */

/** The editor's calls this page makes (DocsAPI): the history panel's list and one version. */
interface DocEditor {
  refreshHistory(data: Record<string, unknown>): void;
  setHistoryData(data: Record<string, unknown>): void;
}

interface DocsApi {
  DocEditor: new (element: string, config: Record<string, unknown>) => DocEditor;
}

const DOCUMENT_TYPES: Record<string, string> = {
  xls: 'cell',
  xlsx: 'cell',
  ods: 'cell',
  csv: 'cell',
  ppt: 'slide',
  pptx: 'slide',
  odp: 'slide',
};

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

/** `/office/signature`: the server signs with the document server's secret ('' when none is set). */
async function signed(data: Record<string, unknown>, token: string): Promise<string> {
  const response = await fetch('/api/office/signature', {
    method: 'POST',
    headers: { [TOKEN_HEADER]: token, 'content-type': 'application/json' },
    body: JSON.stringify(data),
  });
  return ((await response.json()) as { data?: string }).data ?? '';
}

/**
 * The editor's history panel (DocsAPI events): the versions Nimbus keeps, each shown from its
 * own address (the kept bytes, or the file for the current one); restoring one goes through
 * `/history/recovery` (the current content is kept as a version first), then the editor opens
 * the restored document afresh.
 */
function historyEvents(input: {
  editor: () => DocEditor | null;
  fileId: string;
  fileType: string;
  api: string;
  credentials: string;
  currentUrl: string;
  token: string;
  history: OfficeHistory;
}): Record<string, unknown> {
  const { fileId, fileType, api, credentials, token } = input;
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
      const url =
        entry.version === history.currentVersion
          ? input.currentUrl
          : `${api}/history/preview/file?id=${encodeURIComponent(entry.key)}&fileId=${encodeURIComponent(fileId)}&${credentials}`;
      const data: Record<string, unknown> = {
        fileType,
        key: entry.key,
        url,
        version: entry.version,
      };
      void signed(data, token).then(
        (signature) =>
          input.editor()?.setHistoryData(signature ? { ...data, token: signature } : data),
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
  const { token, username, userId } = useSessionStore.getState();
  if (!id || !name || !token) {
    status.show(text('noFile'), true);
    return;
  }
  try {
    const config = await apiGet<OfficeConfigView>('/office/config', token);
    const history = await apiGet<OfficeHistory>(
      `/history/office/list?fileId=${encodeURIComponent(id)}`,
      token,
    );
    const key = history.history.at(-1)?.key ?? id;
    // the address the document server reaches Nimbus at (it may differ from the browser's)
    const api = config.callbackServer || `${window.location.origin}/api`;
    const suffix = name.split('.').pop()?.toLowerCase() ?? '';
    const credentials = `${TOKEN_HEADER}=${encodeURIComponent(token)}`;
    const url = `${api}/pre-file/${encodeURIComponent(id)}/${encodeURIComponent(name)}?${credentials}`;
    const docs: Record<string, unknown> = {
      document: {
        fileType: suffix,
        key,
        title: name,
        url,
        permissions: { edit: true, download: true },
      },
      documentType: DOCUMENT_TYPES[suffix] ?? 'word',
      editorConfig: {
        callbackUrl: `${api}/office/track?fileId=${encodeURIComponent(id)}&${credentials}&name=${encodeURIComponent(username)}`,
        lang: useAppStore.getState().lang === 'zh_CN' ? 'zh' : 'en',
        user: { id: userId, name: username },
      },
      width: '100%',
      height: '100%',
    };
    const signature = await signed(docs, token);
    if (signature) docs.token = signature;
    await loadScript(`${config.documentServer}/web-apps/apps/api/documents/api.js`);
    const api$ = (window as unknown as { DocsAPI?: DocsApi }).DocsAPI;
    if (!api$) throw new Error(text('failed'));
    document.body.append(el('div', { id: 'nb-onlyoffice', class: 'nb-doc-area nb-onlyoffice' }));
    let editor: DocEditor | null = null;
    // the events are functions: they are not part of what is signed
    docs.events = historyEvents({
      editor: () => editor,
      fileId: id,
      fileType: suffix,
      api,
      credentials,
      currentUrl: url,
      token,
      history,
    });
    editor = new api$.DocEditor('nb-onlyoffice', docs);
    status.hide();
  } catch (err) {
    status.show((err as Error).message || text('failed'), true);
  }
}

void main();
