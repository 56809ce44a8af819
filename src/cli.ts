#!/usr/bin/env node
console.log('swarm');
