//! Encoding replays as GIFs, frames as masked diffs (PNG pictures are in `strips`).

use std::borrow::Cow;

use super::paint::Canvas;
use super::theme::{Palette, TRANSPARENT};
use super::RenderError;

/// Streams replay frames into a GIF: the first frame whole, each later one as the smallest
/// rectangle that changed, with unchanged pixels in it made transparent (they compress to
/// almost nothing).
pub(crate) struct GifWriter {
    enc: gif::Encoder<Vec<u8>>,
    prev: Option<Canvas>,
}

impl GifWriter {
    pub fn new(w: i32, h: i32, pal: &Palette) -> Result<GifWriter, RenderError> {
        let err = |e: gif::EncodingError| RenderError::Encode(e.to_string());
        let mut enc =
            gif::Encoder::new(Vec::new(), w as u16, h as u16, &pal.bytes()).map_err(err)?;
        enc.set_repeat(gif::Repeat::Infinite).map_err(err)?;
        Ok(GifWriter { enc, prev: None })
    }

    /// Add a frame shown for `delay` hundredths of a second.
    pub fn frame(&mut self, canvas: Canvas, delay: u16) -> Result<(), RenderError> {
        let mut frame = gif::Frame {
            delay,
            dispose: gif::DisposalMethod::Keep,
            ..gif::Frame::default()
        };
        match &self.prev {
            None => {
                frame.width = canvas.w as u16;
                frame.height = canvas.h as u16;
                frame.buffer = Cow::Borrowed(&canvas.px);
                self.enc
                    .write_frame(&frame)
                    .map_err(|e| RenderError::Encode(e.to_string()))?;
            }
            Some(prev) => {
                let (x0, y0, x1, y1) = changed_rect(prev, &canvas).unwrap_or((0, 0, 1, 1));
                let w = (x1 - x0) as usize;
                let mut buf = Vec::with_capacity(w * (y1 - y0) as usize);
                for y in y0..y1 {
                    let row = (y * canvas.w) as usize;
                    let (a, b) = (row + x0 as usize, row + x1 as usize);
                    buf.extend(canvas.px[a..b].iter().zip(&prev.px[a..b]).map(|(&n, &o)| {
                        if n == o {
                            TRANSPARENT
                        } else {
                            n
                        }
                    }));
                }
                frame.left = x0 as u16;
                frame.top = y0 as u16;
                frame.width = w as u16;
                frame.height = (y1 - y0) as u16;
                frame.transparent = Some(TRANSPARENT);
                frame.buffer = Cow::Owned(buf);
                self.enc
                    .write_frame(&frame)
                    .map_err(|e| RenderError::Encode(e.to_string()))?;
            }
        }
        self.prev = Some(canvas);
        Ok(())
    }

    pub fn finish(self) -> Result<Vec<u8>, RenderError> {
        self.enc
            .into_inner()
            .map_err(|e| RenderError::Encode(e.to_string()))
    }
}

/// The bounding box [x0, x1) × [y0, y1) of the pixels that differ, if any.
fn changed_rect(a: &Canvas, b: &Canvas) -> Option<(i32, i32, i32, i32)> {
    let w = a.w as usize;
    let mut rows = a.px.chunks_exact(w).zip(b.px.chunks_exact(w)).enumerate();
    let mut bbox: Option<(usize, usize, usize, usize)> = None;
    for (y, (ra, rb)) in &mut rows {
        if ra == rb {
            continue;
        }
        let first = ra.iter().zip(rb).position(|(p, q)| p != q).unwrap_or(0);
        let last = w - ra
            .iter()
            .rev()
            .zip(rb.iter().rev())
            .position(|(p, q)| p != q)
            .unwrap_or(0);
        bbox = Some(match bbox {
            None => (first, y, last, y + 1),
            Some((x0, y0, x1, _)) => (x0.min(first), y0, x1.max(last), y + 1),
        });
    }
    bbox.map(|(x0, y0, x1, y1)| (x0 as i32, y0 as i32, x1 as i32, y1 as i32))
}
