/** How to install each tool doctor may find missing, on this machine or on a lane's host. Pure data. */
export const INSTALL: Readonly<Record<string, string>> = {
  tmux: 'install tmux (e.g. apt-get install tmux), or set backend: pty',
  claude: 'npm install -g @anthropic-ai/claude-code',
  codex: 'npm install -g @openai/codex',
  gemini: 'npm install -g @google/gemini-cli',
  ssh: 'install the OpenSSH client (e.g. apt-get install openssh-client): swarm reaches the hosts of hosts: with ssh from PATH',
};
