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

interface DocsApi {
  DocEditor: new (element: string, config: Record<string, unknown>) => unknown;
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
    const docs: Record<string, unknown> = {
      document: {
        fileType: suffix,
        key,
        title: name,
        url: `${api}/pre-file/${encodeURIComponent(id)}/${encodeURIComponent(name)}?${credentials}`,
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
    const signed = await fetch('/api/office/signature', {
      method: 'POST',
      headers: { [TOKEN_HEADER]: token, 'content-type': 'application/json' },
      body: JSON.stringify(docs),
    });
    const signature = ((await signed.json()) as { data?: string }).data ?? '';
    if (signature) docs.token = signature;
    await loadScript(`${config.documentServer}/web-apps/apps/api/documents/api.js`);
    const api$ = (window as unknown as { DocsAPI?: DocsApi }).DocsAPI;
    if (!api$) throw new Error(text('failed'));
    document.body.append(el('div', { id: 'nb-onlyoffice', class: 'nb-doc-area nb-onlyoffice' }));
    new api$.DocEditor('nb-onlyoffice', docs);
    status.hide();
  } catch (err) {
    status.show((err as Error).message || text('failed'), true);
  }
}

void main();
