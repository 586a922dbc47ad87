// Places panels on Grafana's 24-column grid, top to bottom in list order, and
// numbers them: panels fill a line left to right and wrap when the next one
// does not fit; a row header always starts a line of its own. So a dashboard
// file only lists its panels in reading order, with a width and height each,
// and can never produce overlapping panels or duplicate ids.
local place(state, p) =
  local wrap = p.type == 'row' || state.x + p.w > 24;
  local x = if wrap then 0 else state.x;
  local y = if wrap then state.y + state.lineH else state.y;
  local lineH = if wrap then p.h else std.max(state.lineH, p.h);
  {
    x: x + p.w,
    y: y,
    lineH: lineH,
    panels: state.panels + [p { id: std.length(state.panels) + 1, gridPos: { x: x, y: y, w: p.w, h: p.h } }],
  };

function(panels)
  std.foldl(place, panels, { x: 0, y: 0, lineH: 0, panels: [] }).panels
