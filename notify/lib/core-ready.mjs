// Imported first by the command, before the modules that read profiles load the core: without
// the core's build it stops here, in one line that names the command that builds it, rather than
// with a module-loading stack trace.
import { coreMissing } from './prerequisites.mjs';

const missing = coreMissing();
if (missing) {
  process.stderr.write(`hotpath-notify: ${missing}\n`);
  process.exit(1);
}
