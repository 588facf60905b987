// A vitest reporter that writes per-project counts to the file named by NIMBUS_PROJECTS_REPORT,
// so `npm test` can show unit, server-sqlite and server-postgres as separate rows. The totals
// still come from vitest's own JSON report; this only splits them.
import fs from 'node:fs';

export default class ProjectsReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    const file = process.env.NIMBUS_PROJECTS_REPORT;
    if (!file) return;
    const projects = {};
    for (const module of testModules) {
      const name = module.project.name || 'default';
      const row = (projects[name] ??= { passed: 0, failed: 0, skipped: 0, crashed: 0 });
      let cases = 0;
      for (const test of module.children.allTests()) {
        cases += 1;
        const state = test.result().state;
        if (state === 'passed') row.passed += 1;
        else if (state === 'failed') row.failed += 1;
        else row.skipped += 1;
      }
      // A file that failed without any failed case (import error, failing hook) crashed.
      const failedCases = [...module.children.allTests('failed')].length;
      if (module.state() === 'failed' && (cases === 0 || failedCases === 0)) row.crashed += 1;
    }
    fs.writeFileSync(
      file,
      JSON.stringify({ projects, unhandledErrors: unhandledErrors.length }, null, 2),
    );
  }
}
