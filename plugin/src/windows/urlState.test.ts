import fc from 'fast-check';

import { parseUrlState, parseWindowParam, URL_KEYS, urlMatches, UrlState, urlUpdate, ViewKind } from './urlState';
import { BaselineMode } from '@hotpath/profile-core';

describe('URL state', () => {
  it('round-trips windows, a hand-picked baseline and the view', () => {
    const state: UrlState = { window: { from: 1767000000000, to: 1767000600000 }, baseline: { from: 1766999400000, to: 1767000000000 }, view: 'diff' };
    const query = urlUpdate(state);
    expect(query).toEqual({ 'hotpath-window': '1767000000000-1767000600000', 'hotpath-baseline': '1766999400000-1767000000000', 'hotpath-view': 'diff', 'hotpath-at': null, 'hotpath-unit': null, 'hotpath-instance': null, 'hotpath-endpoint': null });
    expect(parseUrlState(query as Record<string, string>)).toEqual({ state, problems: [] });
    expect(urlMatches(query as Record<string, string>, state)).toBe(true);
  });

  it('round-trips any state (property)', () => {
    const win = fc.tuple(fc.integer({ min: 1, max: 4e12 }), fc.integer({ min: 1, max: 1e9 })).map(([from, len]) => ({ from, to: from + len }));
    const arb = fc.record(
      {
        window: win,
        baseline: fc.oneof(win, fc.constantFrom<BaselineMode>('auto', 'day', 'week', 'manual')),
        view: fc.constantFrom<ViewKind>('diff', 'side', 'changes'),
      },
      { requiredKeys: [] }
    );
    fc.assert(
      fc.property(arb, (state) => {
        const query = Object.fromEntries(Object.entries(urlUpdate(state)).filter(([, v]) => v !== null)) as Record<string, string>;
        expect(parseUrlState(query).state).toEqual(state);
      })
    );
  });

  it('removes what is not set (null for locationService.partial) and keeps the default view out', () => {
    expect(urlUpdate({ view: 'flame' })).toEqual({ [URL_KEYS.window]: null, [URL_KEYS.baseline]: null, [URL_KEYS.view]: null, [URL_KEYS.at]: null, [URL_KEYS.unit]: null, [URL_KEYS.instance]: null, [URL_KEYS.endpoint]: null });
  });

  it('a baseline mode in the URL', () => {
    expect(parseUrlState({ 'hotpath-window': '10-20', 'hotpath-baseline': 'week' }).state).toEqual({ window: { from: 10, to: 20 }, baseline: 'week' });
  });

  it('names what it cannot read', () => {
    const { state, problems } = parseUrlState({ 'hotpath-window': '20-10', 'hotpath-baseline': 'yesterday', 'hotpath-view': 'pie' });
    expect(state).toEqual({});
    expect(problems).toEqual([
      'hotpath-window=20-10 is not <from ms>-<to ms>',
      'hotpath-baseline=yesterday is neither <from ms>-<to ms> nor one of auto, day, week, manual, siblings',
      'hotpath-view=pie is not one of flame, diff, side, changes',
    ]);
  });

  it.each(['', 'abc', '1-', '-5-10', '1.5-2', '10-10', ['10-20', '30-40']])('window param %p', (v) => {
    const w = parseWindowParam(v);
    if (Array.isArray(v)) {
      expect(w).toEqual({ from: 10, to: 20 });
    } else {
      expect(w).toBeUndefined();
    }
  });

  it("an alert link's moment", () => {
    expect(parseUrlState({ 'hotpath-at': '87600000', 'hotpath-view': 'diff' })).toEqual({ state: { at: 87600000, view: 'diff' }, problems: [] });
    expect(parseUrlState({ 'hotpath-at': 'now' }).problems).toEqual(['hotpath-at=now is not a time in unix ms']);
    expect(urlUpdate({ window: { from: 1, to: 2 } })['hotpath-at']).toBeNull();
  });

  it('urlMatches sees a difference', () => {
    expect(urlMatches({ 'hotpath-window': '1-2' }, { window: { from: 1, to: 3 } })).toBe(false);
    expect(urlMatches({ 'hotpath-window': '1-3', other: 'x' }, { window: { from: 1, to: 3 } })).toBe(true);
  });

  it('the endpoint round-trips (a route, slashes and all)', () => {
    const query = urlUpdate({ endpoint: '/shop.Catalog/Get' });
    expect(query['hotpath-endpoint']).toBe('/shop.Catalog/Get');
    expect(parseUrlState({ 'hotpath-endpoint': '/shop.Catalog/Get' }).state).toEqual({ endpoint: '/shop.Catalog/Get' });
  });

  it('the unit and the siblings instance round-trip; an unknown unit is named', () => {
    const state: UrlState = { window: { from: 1, to: 2000 }, baseline: 'siblings', instance: 'catalog-2:8080', unit: 'absolute' };
    const query = urlUpdate(state);
    expect(query).toMatchObject({ 'hotpath-baseline': 'siblings', 'hotpath-instance': 'catalog-2:8080', 'hotpath-unit': 'absolute' });
    expect(parseUrlState(query as Record<string, string>)).toEqual({ state, problems: [] });
    expect(parseUrlState({ 'hotpath-unit': 'per-minute' }).problems).toEqual(['hotpath-unit=per-minute is not one of per-request, absolute, share']);
  });
});
