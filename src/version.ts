/** This swarm's version: `swarm --version`, and what the host relay tells the engine of the swarm on a host. */
export const VERSION = '0.1.0';
