import Foundation

/// What the camera sees behind the board: a plastered wall meeting a wooden desk, lit from a
/// window on the left, through a lens that darkens the corners.
struct Room: Sendable {
    /// The wall and desk, before lighting.
    let backdrop: ColorCanvas
    /// How bright the light is at each pixel, lens falloff included; multiplies everything in view.
    let light: [Float]

    /// Paints the room for a `width` x `height` frame.
    init(width: Int, height: Int, seed: UInt64) {
        let texture = ValueNoise(seed: seed)
        let grain = ValueNoise(seed: seed &+ 1)
        let plaster = ColorCanvas.Color(0.80, 0.77, 0.71)
        let wood = ColorCanvas.Color(0.56, 0.38, 0.24)
        backdrop = ColorCanvas(width: width, height: height) { px, py in
            let x = Double(px), y = Double(py)
            let deskEdge = 0.66 * Double(height) + 0.04 * (x - Double(width) / 2)
            if y < deskEdge {
                // The wall: a room corner at the left, plaster unevenness, darker towards the top.
                let corner = 0.86 + 0.14 * SessionScript.smoothStep(x, over: 70...100)
                let shade = (0.88 + 0.12 * y / deskEdge) * corner * (1 + 0.035 * texture.value(x / 45, y / 45))
                // The desk's back edge casts a soft shadow on the wall just above it.
                let contact = 1 - 0.25 * exp(-(deskEdge - y) / 4)
                return plaster * Float(shade * contact)
            }
            // The desk: grain running across, wavering, brighter towards the front.
            let depth = (y - deskEdge) / (Double(height) - deskEdge)
            let lines = 0.5 + 0.5 * sin(0.22 * y + 4 * grain.value(x / 110, y / 14))
            let shade = (0.82 + 0.18 * depth) * (0.86 + 0.14 * lines) * (1 + 0.05 * texture.value(x / 20, y / 20))
            return wood * Float(shade)
        }
        var light: [Float] = []
        light.reserveCapacity(width * height)
        let middle = (x: Double(width - 1) / 2, y: Double(height - 1) / 2)
        let halfDiagonal = (middle.x * middle.x + middle.y * middle.y).squareRoot()
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x) - middle.x, dy = Double(y) - middle.y
                let vignette = 1 - 0.28 * (dx * dx + dy * dy) / (halfDiagonal * halfDiagonal)
                let window = 1.06 - 0.16 * Double(x) / Double(width)
                light.append(Float(vignette * window))
            }
        }
        self.light = light
    }
}

