// Preloaded into a child gateway (NODE_OPTIONS=--import=<this file>) to lag its event loop on
// demand, as a burst does: SIGUSR2 switches the lag on and off. While on, every HTTP request
// costs LAG_PER_REQUEST_MS of busy work when it arrives, so a turn of the loop that reads many
// requests runs long: the timers those requests set come due before the sockets holding Redis's
// replies are read again.
import { Server } from 'node:http';

const perRequestMs = Number(process.env.LAG_PER_REQUEST_MS || 0);
let lagging = false;

const emit = Server.prototype.emit;
Server.prototype.emit = function (event, ...args) {
  const result = emit.call(this, event, ...args);
  if (lagging && event === 'request') {
    const until = performance.now() + perRequestMs;
    while (performance.now() < until);
  }
  return result;
};

process.on('SIGUSR2', () => {
  lagging = !lagging;
  process.stdout.write(`${JSON.stringify({ msg: `event loop lag ${lagging ? 'on' : 'off'}` })}\n`);
});
