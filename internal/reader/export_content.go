package reader

import "github.com/tidwall/gjson"

// This file holds the content accessors `cctx export` needs beyond show's:
// the base64 data of images, which show only measures.

// ImageData returns the media type and base64 data of an image or document
// block (Block.Raw), when its source is base64 data; ok is false for other
// sources (a URL, a file id) and for a block that is not an object.
func ImageData(block string) (mediaType, data string, ok bool) {
	res := gjson.GetMany(block, "source.type", "source.media_type", "source.data")
	if res[0].Str != "base64" || res[2].Type != gjson.String {
		return "", "", false
	}
	return res[1].Str, res[2].Str, true
}

// ResultBlocks parses the content of a tool_result (Block.Content: raw
// JSON, a string or an array of blocks) into blocks: a string content is
// one text block; image and document blocks keep their Raw, for ImageData.
func ResultBlocks(content string) []Block {
	c := gjson.Parse(content)
	if c.Type == gjson.String {
		return []Block{{Type: "text", Text: c.Str}}
	}
	var out []Block
	c.ForEach(func(_, v gjson.Result) bool {
		if !v.IsObject() {
			return true
		}
		b := Block{Type: v.Get("type").Str, Raw: v.Raw}
		switch b.Type {
		case "text":
			b.Text = v.Get("text").Str
		case "image", "document":
			b.MediaType = v.Get("source.media_type").Str
			b.DataBytes = len(v.Get("source.data").Str)
		}
		out = append(out, b)
		return true
	})
	return out
}
