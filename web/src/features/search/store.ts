import { create } from 'zustand';
import { DEFAULT_OPTIONS, type SearchOptions } from './options';

interface SearchOptionsState {
  options: SearchOptions;
  setOptions: (options: SearchOptions) => void;
}

/** The options the next search uses (UI state; the results page keeps its own in the URL). */
export const useSearchOptions = create<SearchOptionsState>()((set) => ({
  options: DEFAULT_OPTIONS,
  setOptions: (options) => set({ options }),
}));
