-- Tag headers with their level, code blocks with their line count, strong text as marked, and append an outline
-- (one numbered item per header, in document order) under a level-2 header "Outline".
local headers = {}

local function header(h)
  headers[#headers + 1] = pandoc.utils.stringify(h.content)
  h.attributes['data-level'] = tostring(h.level)
  return h
end

local function code_block(cb)
  local _, newlines = cb.text:gsub('\n', '')
  cb.attributes['data-lines'] = tostring(newlines + 1)
  return cb
end

local function strong(s)
  return pandoc.Span(s.content, {class = 'marked'})
end

local function outline(doc)
  local items = {}
  for i, t in ipairs(headers) do
    items[#items + 1] = {pandoc.Plain({pandoc.Str(i .. '. ' .. t)})}
  end
  doc.blocks:insert(pandoc.Header(2, {pandoc.Str('Outline')}, {id = 'outline'}))
  doc.blocks:insert(pandoc.BulletList(items))
  return doc
end

return {{Header = header, CodeBlock = code_block, Strong = strong}, {Pandoc = outline}}
