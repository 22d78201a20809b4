import Foundation

/// A view's pose fitted again with the camera held: Gauss-Newton on the view's reprojection error
/// over its 6 pose parameters, from a given pose.
enum PoseFit {
    /// The squared reprojection error of each of `view`'s points once its pose is fitted with
    /// `camera` held, starting from `rotation` and `translation`.
    static func residuals(_ view: CalibrationView, camera: Camera, rotation: [Double], translation: [Double]) -> [Double] {
        let k = [camera.fx, camera.fy, camera.cx, camera.cy] + camera.distortion
        let objects = view.points.map { SIMD3($0.object.x, $0.object.y, $0.object.z) }
        let images = view.points.map { SIMD2($0.image.x, $0.image.y) }
        func errors(_ pose: [Double]) -> [Double] {
            let r = SIMD3(pose[0], pose[1], pose[2]), t = SIMD3(pose[3], pose[4], pose[5])
            var errors: [Double] = []
            errors.reserveCapacity(2 * objects.count)
            for index in objects.indices {
                let q = LensProjection.project(LensProjection.rotate(objects[index], by: r) + t, model: camera.model, intrinsics: k)
                errors.append(q.x - images[index].x)
                errors.append(q.y - images[index].y)
            }
            return errors
        }
        var pose = rotation + translation
        var current = errors(pose)
        var lambda = 1e-3
        // The normal equations at `pose`; a step that is refused leaves the pose, and so them, as
        // they were: only the damping changes.
        var normal: [[Double]] = [], gradient: [Double] = []
        var moved = true
        for _ in 0..<30 {
            if moved {
                var jacobian: [[Double]] = []
                for index in 0..<6 {
                    let step = max(abs(pose[index]), 1) * 1e-7
                    var plus = pose, minus = pose
                    plus[index] += step
                    minus[index] -= step
                    jacobian.append(zip(errors(plus), errors(minus)).map { ($0 - $1) / (2 * step) })
                }
                normal = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 6)
                gradient = [Double](repeating: 0, count: 6)
                for i in 0..<6 {
                    for j in 0..<6 { normal[i][j] = dot(jacobian[i], jacobian[j]) }
                    gradient[i] = dot(jacobian[i], current)
                }
                moved = false
            }
            var damped = normal
            for i in 0..<6 { damped[i][i] *= 1 + lambda }
            guard let step = solve(damped, gradient.map { -$0 }) else { break }
            let candidate = zip(pose, step).map { $0 + $1 }
            let next = errors(candidate)
            let before = current.reduce(0) { $0 + $1 * $1 }, after = next.reduce(0) { $0 + $1 * $1 }
            if after < before {
                pose = candidate
                current = next
                moved = true
                lambda = max(lambda / 10, 1e-9)
                if before - after < 1e-12 * before { break }
            } else {
                lambda *= 10
                if lambda > 1e6 { break }
            }
        }
        return stride(from: 0, to: current.count, by: 2).map { (index: Int) -> Double in
            let x = current[index], y = current[index + 1]
            return x * x + y * y
        }
    }

    private static func dot(_ a: [Double], _ b: [Double]) -> Double {
        var sum = 0.0
        for index in a.indices { sum += a[index] * b[index] }
        return sum
    }

    /// `a x = b` by Gaussian elimination with partial pivoting; `nil` when `a` is singular.
    static func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        var m = a, v = b
        let n = v.count
        for column in 0..<n {
            guard let pivot = (column..<n).max(by: { abs(m[$0][column]) < abs(m[$1][column]) }), abs(m[pivot][column]) > 1e-300 else { return nil }
            m.swapAt(column, pivot)
            v.swapAt(column, pivot)
            for row in (column + 1)..<n {
                let factor = m[row][column] / m[column][column]
                for c in column..<n { m[row][c] -= factor * m[column][c] }
                v[row] -= factor * v[column]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = v[row]
            for c in (row + 1)..<n { sum -= m[row][c] * x[c] }
            x[row] = sum / m[row][row]
        }
        return x
    }
}
