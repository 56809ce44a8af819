/**
 * The live dashboard: header, one line per lane (scrolling when they do not fit), the selected
 * lane's last pane lines, the last events, a legend, the keys. It reads the frame store the runtime
 * hands it and acts only through `actions`; it never writes to the terminal itself (Ink does) and
 * never holds up the swarm.
 */
import { useContext, useRef, useState } from 'react';
import { Box, Text, useInput, useStdin } from 'ink';
import { FrameContext, useFrame } from './context.js';
import type { FrameStore } from './frames.js';
import { cut } from './format.js';
import { keyAction, moveSelection, type DashboardActions } from './keys.js';
import { FIXED_LINES, budget, scrollTop } from './layout.js';
import { useTerminalSize, type TerminalSize } from './useTerminalSize.js';
import { Events, shownEvents } from './components/Events.js';
import { Footer } from './components/Footer.js';
import { Header } from './components/Header.js';
import { LaneTable } from './components/LaneTable.js';
import { Legend } from './components/Legend.js';
import { Preview } from './components/Preview.js';

export interface AppProps {
  frames: FrameStore;
  actions: DashboardActions;
  /** False under `NO_COLOR`: the same text, no colours. */
  color: boolean;
  /** A fixed terminal size (tests); else the terminal's, kept current on resize. */
  size?: TerminalSize;
  /** Paths in events are shown relative to this folder (swarm.yaml's); default the plan's parent. */
  relativeTo?: string;
}

/** The dashboard as an element to render: React's own entry is CommonJS, and the bundle of `swarm up` gives a dynamic import of it no named exports. */
export function appElement(props: AppProps) {
  return <App {...props} />;
}

export function App({ frames, ...rest }: AppProps) {
  return (
    <FrameContext.Provider value={frames}>
      <Dashboard {...rest} />
    </FrameContext.Provider>
  );
}

function Dashboard({ actions, color, size, relativeTo }: Omit<AppProps, 'frames'>) {
  const frames = useContext(FrameContext)!;
  const { columns, rows } = useTerminalSize(size);
  const laneCount = useFrame((f) => f.view.lanes.length);
  const eventCount = useFrame((f) => shownEvents(f.view.events).length);
  const name = useFrame((f) => f.view.name);
  const [wanted, setSelected] = useState(0);
  // Keys can arrive faster than frames: each one acts on the selection the previous one left.
  const current = useRef(0);
  const { isRawModeSupported } = useStdin();
  const fit = budget(rows, laneCount, eventCount);
  const selected = moveSelection(wanted, { type: 'move', by: 0 }, laneCount);
  current.current = selected;
  const top = scrollTop(selected, laneCount, fit.lanes);

  useInput((input, key) => {
    const action = keyAction(input, key, fit.lanes);
    if (action === null) return;
    if (action.type === 'detach') return actions.detach();
    const lanes = frames.getState().view.lanes;
    if (action.type === 'focus') {
      const paneId = lanes[current.current]?.lane.paneId;
      if (paneId) actions.focusPane(paneId);
      return;
    }
    current.current = moveSelection(current.current, action, lanes.length);
    setSelected(current.current);
  }, { isActive: isRawModeSupported === true });

  // Never a frame as tall as the terminal: Ink would clear the screen and the scrollback with it.
  if (rows - 1 < FIXED_LINES) {
    return rows > 1 ? <Text wrap="truncate">{cut(`swarm ${name}: the terminal is too small for the dashboard`, columns)}</Text> : null;
  }
  const scroll = laneCount > fit.lanes ? ` · lanes ${top + 1}–${top + fit.lanes} of ${laneCount}` : '';
  return (
    <Box flexDirection="column" width={columns}>
      <Header width={columns} color={color} scroll={scroll} />
      <LaneTable width={columns} color={color} top={top} count={fit.lanes} selected={selected} />
      {fit.preview > 0 ? <Preview width={columns} color={color} selected={selected} count={fit.preview} /> : null}
      {fit.events > 0 ? <Events width={columns} color={color} count={fit.events} {...(relativeTo === undefined ? {} : { relativeTo })} /> : null}
      {fit.legend > 0 ? <Legend width={columns} color={color} /> : null}
      <Footer width={columns} color={color} />
    </Box>
  );
}
