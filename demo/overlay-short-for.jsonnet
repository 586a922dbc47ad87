// The playground's DEMO OVERLAY (make demo-test only; make demo loads rules/
// unchanged). It shortens every alert's `for:` so that the test sees each
// incident's alert within minutes instead of 15-20; every expression, window,
// threshold, label and annotation stays as shipped. demo-test renders it with
// tools/render-mixin.sh into .cache/demo-test/overlay-short-for/ and
// refuses to run when its rules differ from rules/ in anything but `for:`.
local mixin = import 'mixin.libsonnet';

local demoFor = '2m';

(import 'lib/render.libsonnet')(
  mixin { _config+:: { alertFor: { [a]: demoFor for a in std.objectFields(mixin._config.alertFor) } } }
)
