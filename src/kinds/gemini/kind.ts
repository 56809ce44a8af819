/**
 * Gemini CLI: panes/gemini.yaml (its launch, screens and idle rule) says all swarm knows of it yet.
 * Its CLI is `gemini`; no probe (capacity comes from `ak` or the lane's own capacity lines), no
 * readiness check, no approvals: its folder is where they land.
 */
import { plainKind, type Kind } from '../kind.js';

export const gemini: Kind = { ...plainKind('gemini'), cli: 'gemini' };
