import type MindMap from 'simple-mind-map';

/** The widget's undo history, as far as its declared types leave it out. */
interface History {
  addHistory: () => void;
  originAddHistory: () => void;
  exec: (name: string, ...args: unknown[]) => void;
}

/**
 * Makes each gesture on a map its own undo step. The widget records a step a moment after a
 * command (its history is throttled), so the steps of gestures made within that moment merged
 * into one, and an undo pressed right after a Delete found the Delete not yet recorded: the
 * topic did not come back. Here a step still waiting is recorded at once when the next key or
 * pointer press begins, and before an undo or redo; the commands one gesture runs stay one step.
 * Returns the function that stops it (after the widget is destroyed).
 */
export function recordEachGesture(mindMap: MindMap): () => void {
  const history = mindMap.command as unknown as History;
  const delay = (mindMap.opt as { addHistoryTime?: number }).addHistoryTime ?? 100;
  let waiting: number | undefined;
  const record = () => {
    if (waiting === undefined) return;
    window.clearTimeout(waiting);
    waiting = undefined;
    history.originAddHistory();
  };
  history.addHistory = () => {
    waiting ??= window.setTimeout(() => {
      waiting = undefined;
      history.originAddHistory();
    }, delay);
  };
  const exec = history.exec.bind(history);
  history.exec = (name, ...args) => {
    if (name === 'BACK' || name === 'FORWARD') record();
    exec(name, ...args);
  };
  // the map as opened is the first step, whatever is done before the widget's own timer runs
  history.originAddHistory();
  window.addEventListener('keydown', record, true);
  window.addEventListener('pointerdown', record, true);
  return () => {
    window.removeEventListener('keydown', record, true);
    window.removeEventListener('pointerdown', record, true);
    window.clearTimeout(waiting);
    waiting = undefined;
  };
}
