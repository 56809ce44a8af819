/**
 * The shapes shared by the mock model server's parts (`swarm drill --real`): one vendor-neutral scripted agent
 * (the "brain") decides each turn's next action from the conversation so far; each vendor's handler
 * (Claude Code's Messages API in claude.ts, Codex's Responses API in codex.ts) turns the request into
 * a `MockConversation`, asks the brain, and streams the action back in its own server-sent events, with
 * the rate-limit headers of the account's reading at that request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** One entry of a conversation, flattened from either vendor's request body. */
export type MockEntry =
  | { readonly role: 'user'; readonly text: string }
  | { readonly role: 'assistant'; readonly text: string }
  | { readonly role: 'tool_call'; readonly id: string; readonly command: string }
  | { readonly role: 'tool_result'; readonly id: string; readonly output: string; readonly isError: boolean };

export interface MockConversation {
  /** The system prompt / instructions as one text ('' when none). */
  readonly system: string;
  readonly entries: readonly MockEntry[];
}

/** What the scripted agent does next: run one shell command through the CLI's own tool, or end the turn. */
export type MockAction =
  | {
      readonly kind: 'shell';
      readonly command: string;
      /**
       * Ask to run it outside the sandbox, for this reason. Codex runs commands sandboxed and asks for
       * approval (under `-a on-request`) only when the model asks for it (`require_escalated`); Claude
       * Code asks for any tool outside its approvals, so its handler can ignore this.
       */
      readonly escalate?: string;
    }
  | { readonly kind: 'say'; readonly text: string };

/** An account's quota as the mock reports it at one request. Percentages 0–100, resets in epoch seconds. */
export interface MockRateReading {
  readonly fiveHourUsed: number;
  readonly weekUsed: number;
  readonly fiveHourResetsAt: number;
  readonly weekResetsAt: number;
  /** true: answer this request with the vendor's 429 usage-limit error instead of a reply. */
  readonly rejected: boolean;
  /**
   * The 5-hour used % that went out with the account's previous reply (null on its first request;
   * absent when the script does not say). What a capacity reading taken now can at best know.
   */
  readonly previousFiveHourUsed?: number | null;
}

export interface MockTurn {
  /** The account the request authenticated as (the mock's token names it). */
  readonly account: string;
  readonly conversation: MockConversation;
  /** The 5-hour used % the CLI got with its previous reply on this account, when the quota script says. */
  readonly sentUsed?: number | null;
}

/** The vendor-neutral scripted agent. Pure: the same conversation gives the same action. */
export type MockBrain = (turn: MockTurn) => MockAction;

/** The per-account quota script: called once per model request, in order. */
export type MockRates = (account: string) => MockRateReading;

/**
 * One request as the mock answered it, for the drill's evidence: vendor, account, path, the action or
 * error, and for an agent's turn what it carried — the conversation's entries (the system prompt left
 * out), Codex's `previous_response_id` when it sent one, and whether its system prompt carried swarm's
 * protocol — so a resumed session can be told from a fresh one, or from one that lost its system prompt.
 */
export interface MockRecord {
  vendor: 'claude' | 'codex';
  account: string;
  path: string;
  action?: MockAction;
  status: number;
  entries?: readonly MockEntry[];
  previousResponseId?: string;
  /** Its system prompt carried swarm's protocol brief (`SWARM_PROTOCOL`: Claude Code's `--append-system-prompt-file`). */
  protocol?: boolean;
}

/** The heading of swarm's protocol brief (core/launch/agentPrompt.ts `protocolBrief`) in a system prompt. */
export const SWARM_PROTOCOL = /^# swarm protocol: /m;

/** What every vendor handler gets besides the request. */
export interface MockDeps {
  readonly brain: MockBrain;
  readonly rates: MockRates;
  /** Called for every request, for the drill's evidence. */
  readonly record: (entry: MockRecord) => void;
}

/** A vendor's HTTP handler: the body already read and parsed as JSON (undefined when empty). */
export type MockHandler = (req: IncomingMessage, body: unknown, res: ServerResponse, deps: MockDeps) => Promise<void> | void;
