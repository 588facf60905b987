import { holdRemote, releaseRemote, releaseRemoteIn } from '../../lib/remote-content';

/**
 * Vditor draws every view of a document (instant rendering, the preview pane, pasted HTML)
 * from what its Lute engine makes of the text. Each Lute is wrapped so the HTML it makes holds
 * remote addresses back (nothing is fetched from another site), and the HTML it reads back
 * has them in place again (the text keeps its addresses). The document view open decides
 * whether remote content loads; a closed view leaves it held.
 */

type LuteInstance = Record<string, unknown>;
interface LuteGlobal {
  New: () => LuteInstance;
  __nimbusGuarded?: boolean;
}

/** The document view shown now: whether its reader let remote content in, and who to tell. */
let view: { allowed: boolean; onHeld: () => void } | null = null;

/** Lute's methods that answer HTML to be shown (`Md2HTML`, `Md2VditorIRDOM`, `Spin…DOM`…). */
const makesMarkup = (name: string) => /(DOM|HTML)$/.test(name) && !/^(Set|Get|Put)/.test(name);

function guard(lute: LuteInstance): LuteInstance {
  return new Proxy(lute, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      const name = typeof property === 'string' ? property : '';
      return (...args: unknown[]) => {
        const given = args.map((arg) => (typeof arg === 'string' ? releaseRemote(arg) : arg));
        const made = method.apply(target, given);
        if (typeof made !== 'string' || !makesMarkup(name) || view?.allowed) return made;
        const { html, held } = holdRemote(made, window.location.href);
        if (held > 0) view?.onHeld();
        return html;
      };
    },
  });
}

/** Vditor's Lute script, loaded by us first (Vditor then takes it) so each Lute is guarded. */
export function loadGuardedLute(cdn: string): Promise<void> {
  const id = 'vditorLuteScript';
  const wrap = () => {
    const lute = (window as unknown as { Lute?: LuteGlobal }).Lute;
    if (!lute || lute.__nimbusGuarded) return;
    const made = lute.New.bind(lute);
    lute.New = () => guard(made());
    lute.__nimbusGuarded = true;
  };
  if (document.getElementById(id)) {
    wrap();
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.id = id;
    script.src = `${cdn}/dist/js/lute/lute.min.js`;
    script.onload = () => {
      wrap();
      resolve();
    };
    script.onerror = () => {
      script.remove();
      reject(new Error('the markdown engine did not load'));
    };
    document.head.appendChild(script);
  });
}

/**
 * Open a document view: remote content stays held until `release`, and `onHeld` hears of each
 * rendering that held something back. `close` ends the view.
 */
export function openDocumentView(onHeld: () => void): {
  release: (root: ParentNode) => void;
  close: () => void;
} {
  const current = { allowed: false, onHeld };
  view = current;
  return {
    release: (root) => {
      current.allowed = true;
      releaseRemoteIn(root);
    },
    close: () => {
      if (view === current) view = null;
    },
  };
}

/**
 * PlantUML blocks would be drawn by plantuml.com from the block's text: Vditor's encoder is
 * replaced by one that refuses, so such a block shows `message` instead of leaving the drive.
 */
export function keepPlantUmlHome(message: string): void {
  (window as unknown as { plantumlEncoder?: unknown }).plantumlEncoder = {
    encode: () => {
      throw new Error(message);
    },
  };
  // Vditor loads its encoder only when no element has this id
  const id = 'vditorPlantumlScript';
  if (document.getElementById(id)) return;
  const marker = document.createElement('meta');
  marker.id = id;
  document.head.appendChild(marker);
}
