import { css } from '@emotion/css';
import { PanelProps } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';

import { TEST_IDS } from '../../constants';
import { HotpathOptions } from '../../options';
import { isDiff } from '@hotpath/profile-core';
import { ErrorView } from './ErrorView';

import { EndpointPicker } from './EndpointPicker';
import { OverlayHeader } from './OverlayHeader';
import { OverlayStatus } from './OverlayStatus';
import { ProfileArea } from './ProfileArea';
import { TimeStrip } from '../TimeStrip/TimeStrip';
import { useOverlayModel } from './useOverlayModel';

export { describeWindow } from './useOverlayModel';

/**
 * The overlay: the time-series strip with its windows on top, the profile views below. Owns
 * the windows (through the URL) and the window fetches (useOverlayModel derives both); the flame
 * graph state lives in the explorer (FlameGraphExplorer).
 */
export function OverlayPanel(props: PanelProps<HotpathOptions>) {
  const { width, height, timeZone } = props;
  const m = useOverlayModel(props);
  const styles = useStyles2(getStyles);
  const { opts, selection, baseline, whole, unit, requests, unitNotice } = m;
  return (
    <div className={styles.wrap} style={{ width, height }} data-testid={TEST_IDS.overlayPanel}>
      <OverlayHeader
        height={m.heights.header}
        view={m.shownView}
        disabledViews={m.disabledViews}
        unit={unit}
        perRequestMissing={m.perRequestMissing}
        unitNotice={unitNotice}
        mode={m.mode}
        defaultMode={opts.baselineMode}
        instance={m.instance}
        siblingLabel={m.siblingLabel}
        hasSelection={!!selection}
        links={m.links}
        endpointPicker={m.endpoints.status !== 'off' && <EndpointPicker state={m.endpoints} endpoint={m.endpoint} onPick={(endpoint) => m.update({ endpoint })} />}
        onUpdate={m.update}
        onClear={m.clear}
      />
      {m.showStrip && (
        <TimeStrip
          width={width}
          height={m.stripHeight}
          range={m.range}
          data={m.stripData}
          anomalyWindows={m.anomalies}
          selection={selection}
          baseline={selection ? baseline : null}
          scheme={opts.colorScheme}
          timeZone={timeZone}
          onSelect={(w) => m.update({ window: w })}
          onBaseline={(w) => m.update({ baseline: w })}
        />
      )}
      <OverlayStatus
        height={m.heights.status}
        range={m.range}
        selection={selection}
        baseline={baseline}
        comparison={m.profiles.comparison}
        baselineProfile={m.profiles.baseline}
        siblings={m.siblings}
        siblingLabel={m.siblingLabel}
        noTarget={m.setup}
        problems={m.url.problems}
        hasStrip={m.stripHeight > 0}
        describe={m.describe}
        onRetry={m.profiles.retry}
      />
      <div style={{ height: m.areaHeight }}>
        {!selection ? (
          whole.ok ? (
            <ProfileArea
              kind="single"
              width={width}
              height={m.areaHeight}
              options={opts}
              tree={whole.selected.tree}
              notices={whole.selected.notices}
              unit={isDiff(whole.selected.tree) && unit === 'per-request' ? 'share' : unit}
              requests={requests}
              unitNotice={unitNotice}
              tables={m.rangeTables}
            />
          ) : (
            <ErrorView title={m.wholeError!.title} message={m.wholeError!.message} />
          )
        ) : (
          <ProfileArea
            kind={m.view}
            width={width}
            height={m.areaHeight}
            options={opts}
            comparison={m.profiles.comparison}
            baseline={baseline ? m.profiles.baseline : undefined}
            comparisonTree={m.limitedComp}
            baselineTree={m.limitedBase}
            diff={m.diff}
            setup={m.setup}
            needsInstance={m.siblings && !m.instance ? m.siblingLabel : undefined}
            onView={(v) => m.update({ view: v })}
            onRetry={m.profiles.retry}
            unit={unit}
            requests={requests}
            unitNotice={unitNotice}
            tables={m.tables}
          />
        )}
      </div>
    </div>
  );
}

const getStyles = () => ({
  wrap: css({ display: 'flex', flexDirection: 'column', overflow: 'hidden' }),
});
