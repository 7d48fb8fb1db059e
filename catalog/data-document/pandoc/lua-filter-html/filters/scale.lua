-- Rescale every number marked [..]{.num}: value * scale, printed with string.format('%.<digits>f').
-- Both parameters come from the document metadata; the Meta pass runs before the Span pass.
local scale = 1
local digits = 3

local function read_meta(m)
  if m.scale then scale = tonumber(pandoc.utils.stringify(m.scale)) end
  if m.digits then digits = math.floor(tonumber(pandoc.utils.stringify(m.digits))) end
end

local function rescale(el)
  if el.classes:includes('num') then
    local v = tonumber(pandoc.utils.stringify(el))
    if v then
      el.attributes['data-raw'] = pandoc.utils.stringify(el)
      el.content = {pandoc.Str(string.format('%.' .. digits .. 'f', v * scale))}
      return el
    end
  end
end

return {{Meta = read_meta}, {Span = rescale}}
