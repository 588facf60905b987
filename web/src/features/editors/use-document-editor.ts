import {
  ErrorCode,
  MAX_DRAFT_BYTES,
  type ChangedMeanwhile,
  type DocumentDraft,
  type HistoryVersion,
} from '@nimbus/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../lib/feedback';
import { ApiError, errorText } from '../../api/client';
import { onLiveMessage } from '../../api/events';
import { useRecoverVersion, versionKeys, versionText } from '../../api/versions';
import type { PreviewItem } from '../../actions/viewers';
import { discardDraft, saveCopy, saveDocument, saveDraft, useDocument } from './api';

/** What the document editors need of their editing widget. */
export interface EditorSurface {
  getValue: () => string;
  setValue: (text: string) => void;
  setReadOnly: (readOnly: boolean) => void;
  /** Finish an edit in progress (a topic's text being typed), so the content holds it. */
  settle?: () => void;
}

/** A version shown read-only in place of the document. */
export interface ShownVersion {
  version: HistoryVersion;
  text: string;
}

/** How often unsaved edits are kept as a draft. */
const DRAFT_EVERY_MS = 10_000;

/** A name for "save as a copy": `notes.md` → `notes (copy).md`. */
export function copyName(name: string, copyWord: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0
    ? `${name.slice(0, dot)} (${copyWord})${name.slice(dot)}`
    : `${name} (${copyWord})`;
}

/** Why a save failed, in words: a WebDAV lock names who holds it and until when. */
function saveFailure(error: unknown, t: TFunction<'editors'>): string {
  if (error instanceof ApiError && error.code === ErrorCode.ITEM_LOCKED) {
    const lock = error.envelope?.data as { holder?: string; until?: string } | undefined;
    return t('locked', {
      holder: lock?.holder ?? '?',
      until: lock?.until ? dayjs(lock.until).format('YYYY-MM-DD HH:mm') : '?',
    });
  }
  if (error instanceof ApiError && error.envelope)
    return `${t('saveFailed')}: ${errorText(error.envelope)}`;
  return t('saveFailed');
}

/**
 * The life of an open document, whatever edits it (markdown, mind map): the baseline it was
 * opened at, whether the widget's content differs from it, saving from that baseline (a
 * conflict is left to the user), viewing a version read-only and restoring it, and hearing
 * over the event stream that the file changed elsewhere.
 */
export function useDocumentEditor(item: PreviewItem) {
  const { t } = useTranslation('editors');
  const queryClient = useQueryClient();
  const recover = useRecoverVersion();
  const document = useDocument(item.id);
  const surface = useRef<EditorSurface | null>(null);
  const baseline = useRef<{ text: string; hash: string | null } | null>(null);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<ChangedMeanwhile | null>(null);
  const [changedElsewhere, setChangedElsewhere] = useState(false);
  const [shown, setShown] = useState<ShownVersion | null>(null);
  /** While a version is shown, the widget's content is not an edit. */
  const showing = useRef(false);

  const [draft, setDraft] = useState<DocumentDraft | null>(null);
  const lastDraft = useRef<string | null>(null);

  useEffect(() => {
    if (!document.data || baseline.current) return;
    baseline.current = { text: document.data.contentText, hash: document.data.hash };
    const kept = document.data.draft;
    if (kept && kept.contentText !== document.data.contentText) setDraft(kept);
  }, [document.data]);

  // unsaved edits are kept as a draft now and then: a closed tab or a crash loses little
  useEffect(() => {
    if (!dirty || shown) return;
    const timer = window.setInterval(() => {
      const text = surface.current?.getValue();
      if (text === undefined || text === lastDraft.current || !baseline.current) return;
      if (new Blob([text]).size > MAX_DRAFT_BYTES) return;
      lastDraft.current = text;
      void saveDraft({ fileId: item.id, contentText: text, baseHash: baseline.current.hash }).catch(
        () => {
          lastDraft.current = null;
        },
      );
    }, DRAFT_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [dirty, shown, item.id]);

  /** Take the draft found on opening into the editor (unsaved, as it was). */
  const restoreDraft = () => {
    if (!draft) return;
    surface.current?.setValue(draft.contentText);
    setDraft(null);
  };

  /** Forget the draft found on opening, or the one kept of edits being thrown away. */
  const dropDraft = () => {
    setDraft(null);
    lastDraft.current = null;
    void discardDraft(item.id).catch(() => undefined);
  };

  /** The widget reports a change: dirty unless the content is the saved one again. */
  const changed = useCallback((text: string) => {
    if (showing.current) return;
    setDirty(baseline.current !== null && text !== baseline.current.text);
  }, []);

  useEffect(
    () =>
      onLiveMessage('fileChange', (message) => {
        const body = message.body as { id?: string; hash?: string | null } | undefined;
        if (message.url !== 'updateFile' || body?.id !== item.id) return;
        if (baseline.current && body.hash !== undefined && body.hash !== baseline.current.hash)
          setChangedElsewhere(true);
      }),
    [item.id],
  );

  const adopt = (text: string, hash: string | null) => {
    baseline.current = { text, hash };
    setDirty((surface.current?.getValue() ?? text) !== text);
    setChangedElsewhere(false);
    void queryClient.invalidateQueries({ queryKey: versionKeys.list(item.id) });
  };

  const save = async (force = false): Promise<boolean> => {
    const widget = surface.current;
    if (!widget || !baseline.current || saving) return false;
    widget.settle?.();
    const text = widget.getValue();
    setSaving(true);
    try {
      const outcome = await saveDocument({
        fileId: item.id,
        contentText: text,
        baseHash: baseline.current.hash,
        force,
      });
      if (outcome.kind === 'changed') {
        setConflict(outcome.current);
        return false;
      }
      adopt(text, outcome.saved.hash);
      setConflict(null);
      void feedback().message.success({ content: t('saved'), duration: 1 });
      return true;
    } catch (error) {
      void feedback().message.error({ content: saveFailure(error, t), duration: 5 });
      return false;
    } finally {
      setSaving(false);
    }
  };

  /** Whether the widget holds anything unsaved, an edit in progress included. */
  const hasChanges = (): boolean => {
    const widget = surface.current;
    if (!widget || !baseline.current) return false;
    widget.settle?.();
    return widget.getValue() !== baseline.current.text;
  };

  /** Drop the edits and take what is stored now. */
  const reload = async () => {
    const fresh = (await document.refetch()).data;
    if (!fresh) return;
    baseline.current = { text: fresh.contentText, hash: fresh.hash };
    surface.current?.setValue(fresh.contentText);
    setDirty(false);
    setConflict(null);
    setChangedElsewhere(false);
  };

  /** Keep the edits as a new document beside this one. */
  const saveAsCopy = async () => {
    const widget = surface.current;
    if (!widget) return;
    const name = copyName(item.name, t('copy'));
    await saveCopy({ filename: name, currentDirectory: item.path, contentText: widget.getValue() });
    setConflict(null);
    void feedback().message.success({ content: t('savedAsCopy', { name }), duration: 2 });
  };

  const showVersion = async (version: HistoryVersion) => {
    if (dirty) {
      void feedback().message.warning({ content: t('saveFirst'), duration: 2 });
      return;
    }
    const { contentText } = await versionText(version.id, item.id);
    showing.current = true;
    setShown({ version, text: contentText });
    surface.current?.setValue(contentText);
    surface.current?.setReadOnly(true);
  };

  const closeVersion = () => {
    showing.current = false;
    setShown(null);
    surface.current?.setValue(baseline.current?.text ?? '');
    surface.current?.setReadOnly(false);
    setDirty(false);
  };

  const restore = async (version: HistoryVersion) => {
    if (dirty) {
      void feedback().message.warning({ content: t('saveFirst'), duration: 2 });
      return;
    }
    const { contentText } = await versionText(version.id, item.id);
    const saved = await recover.mutateAsync({ id: version.id, fileId: item.id });
    showing.current = false;
    setShown(null);
    surface.current?.setValue(contentText);
    surface.current?.setReadOnly(false);
    adopt(contentText, saved.hash);
    setDirty(false);
  };

  return {
    document,
    surface,
    dirty,
    saving,
    changed,
    hasChanges,
    save,
    conflict,
    dismissConflict: () => setConflict(null),
    reload,
    saveAsCopy,
    changedElsewhere,
    shown,
    showVersion,
    closeVersion,
    restore,
    draft,
    restoreDraft,
    dropDraft,
  };
}

export type DocumentEditor = ReturnType<typeof useDocumentEditor>;
