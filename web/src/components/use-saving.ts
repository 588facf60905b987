import { useState } from 'react';

/**
 * A busy flag for a save button or dialog: `save` raises it while the action runs. A failure is
 * swallowed, as the API client has already shown the reason; the form stays as it was.
 */
export function useSaving(): {
  saving: boolean;
  save: (action: () => Promise<void>) => Promise<void>;
} {
  const [saving, setSaving] = useState(false);
  const save = async (action: () => Promise<void>) => {
    setSaving(true);
    try {
      await action();
    } catch {
      // toasted by the client
    } finally {
      setSaving(false);
    }
  };
  return { saving, save };
}
