/**
 * The scoped store: `<App frames={…}>` provides the frame store, components read it through
 * `useFrame(selector)` and re-render only when what they selected changes.
 */
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { Frame, FrameStore } from './frames.js';

export const FrameContext = createContext<FrameStore | null>(null);

/** Select from the current frame; a selector must return a stable value (a primitive or a stored object). */
export function useFrame<T>(selector: (frame: Frame) => T): T {
  const frames = useContext(FrameContext);
  if (frames === null) throw new Error('useFrame outside <App>: the dashboard needs its frame store');
  return useStore(frames, selector);
}
