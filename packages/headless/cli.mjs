// The command-line tools' flag handling (snapshot, sandbox, demo-check): --help prints the
// usage and exits 0; a bad flag prints the message and the usage and exits 2.
import { parseArgs } from 'node:util';

/** Returns { args, fail }: fail(message, code = 2) prints "<name>: message" (and the usage for 2) and exits. */
export function cli(name, usage, options) {
  const fail = (message, code = 2) => {
    process.stderr.write(`${name}: ${message}\n${code === 2 ? `${usage}\n` : ''}`);
    process.exit(code);
  };
  let args;
  try {
    args = parseArgs({ options: { ...options, help: { type: 'boolean' } } }).values;
  } catch (e) {
    fail(e.message);
  }
  if (args.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return { args, fail };
}
