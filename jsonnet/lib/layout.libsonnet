// Places panels on Grafana's 24-column grid, top to bottom in list order, and
// numbers them: panels fill a line left to right and wrap when the next one
// does not fit; a row header always starts a line of its own. So a dashboard
// file only lists its panels in reading order, with a width and height each,
// and can never produce overlapping panels or duplicate ids.
//
// A collapsed row (panel.libsonnet's collapsedRow) holds its panels, laid out
// below its header as Grafana lays them out when the row is opened, and
// numbered after it; the next panel starts right below the header.
local place(state, p) =
  local wrap = p.type == 'row' || state.x + p.w > 24;
  local x = if wrap then 0 else state.x;
  local y = if wrap then state.y + state.lineH else state.y;
  local lineH = if wrap then p.h else std.max(state.lineH, p.h);
  local id = state.nextId;
  local children =
    if p.type == 'row' && p.collapsed then
      std.foldl(place, p.panels, { x: 0, y: y + p.h, lineH: 0, panels: [], nextId: id + 1 })
    else { panels: [], nextId: id + 1 };
  local placed = p { id: id, gridPos: { x: x, y: y, w: p.w, h: p.h } }
                 + (if p.type == 'row' && p.collapsed then { panels: children.panels } else {});
  {
    x: x + p.w,
    y: y,
    lineH: lineH,
    panels: state.panels + [placed],
    nextId: children.nextId,
  };

function(panels)
  std.foldl(place, panels, { x: 0, y: 0, lineH: 0, panels: [], nextId: 1 }).panels
