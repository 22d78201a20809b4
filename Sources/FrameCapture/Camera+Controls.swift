import Glibc

/// Controls by their `v4l2-ctl` names, with values checked against what each control takes, and the
/// lock that fixes exposure, gain, white balance and focus for a calibration set.
extension Camera {
    /// Sets the control `v4l2-ctl` calls `name` to `value` (`VIDIOC_S_CTRL`), after checking the
    /// value against the control's range, step or menu.
    ///
    /// - Parameters:
    ///   - name: The control's ``CameraControl/v4l2Name`` (`exposure_absolute`, `gain`).
    ///   - value: The value, in the control's own units.
    /// - Returns: What was set.
    /// - Throws: ``ControlError``: ``ControlError/Kind/unknownControl`` listing the camera's
    ///   controls, ``ControlError/Kind/outOfRange`` with the control's range (also when the device
    ///   answers `ERANGE`), ``ControlError/Kind/device`` for other failures (`EACCES` while an
    ///   automatic mode governs the control).
    @discardableResult
    public func setControl(named name: String, to value: Int64) throws(ControlError) -> ControlAssignment {
        let controls = try listControls()
        guard let control = controls.first(where: { $0.v4l2Name == name }) else {
            let names = controls.filter { $0.kind.hasValue && !$0.isReadOnly }.map(\.v4l2Name)
            throw ControlError(.unknownControl, device: path, control: name, detail: names.joined(separator: ", "))
        }
        return try set(control, to: value)
    }

    /// Fixes exposure, gain, white balance and focus at the values the camera uses now: reads
    /// `exposure_absolute`, `gain`, `white_balance_temperature` and `focus_absolute` first, then
    /// turns `exposure_auto` to manual and `gain_automatic`, `white_balance_temperature_auto` and
    /// `focus_auto` off, and writes the values read back. Controls the camera lacks are passed over.
    ///
    /// Give automatic modes time to settle on the scene (a second or so of streaming) before
    /// locking.
    ///
    /// - Returns: Every control set, in order.
    /// - Throws: ``ControlError`` from listing or setting a control.
    public func lockControls() throws(ControlError) -> [ControlAssignment] {
        let controls = try listControls()
        func control(_ id: ControlID) -> CameraControl? { controls.first { $0.id == id && $0.kind.hasValue && !$0.isReadOnly } }
        let fixed: [(mode: ControlID, manual: Int64, value: ControlID)] = [
            (.exposureAuto, Int64(ControlID.exposureManual), .exposureAbsolute),
            (.autoGain, 0, .gain),
            (.autoWhiteBalance, 0, .whiteBalanceTemperature),
            (.focusAuto, 0, .focusAbsolute),
        ]
        let current = fixed.compactMap { entry in control(entry.value).flatMap { found in found.value.map { (found, $0) } } }
        var applied: [ControlAssignment] = []
        for entry in fixed {
            if let mode = control(entry.mode), mode.accepts(entry.manual) { applied.append(try set(mode, to: entry.manual)) }
        }
        for (control, value) in current { applied.append(try set(control, to: value)) }
        return applied
    }

    /// Applies `settings`: exposure, focus, the named controls, then the lock.
    ///
    /// - Returns: Every control set, in order: what to record with the pictures.
    /// - Throws: ``ControlError`` for the first setting that fails; the ones before it stay applied.
    public func apply(_ settings: ControlSettings) throws(ControlError) -> [ControlAssignment] {
        var applied: [ControlAssignment] = []
        if let exposure = settings.exposure { applied += try setExposure(exposure) }
        if let focus = settings.focus { applied += try setFocus(focus) }
        for assignment in settings.controls { applied.append(try setControl(named: assignment.name, to: assignment.value)) }
        if settings.lock { applied += try lockControls() }
        return applied
    }

    /// The values the named controls hold now, as the device reads them back: what a setting or
    /// the lock actually left, to record with the pictures. Names are kept once each, in order;
    /// names the camera lacks, or controls without a value, are left out.
    ///
    /// - Throws: ``ControlError/Kind/device`` when the controls cannot be listed.
    public func currentValues(of names: [String]) throws(ControlError) -> [ControlAssignment] {
        let controls = try listControls()
        var seen = Set<String>()
        return names.compactMap { name in
            guard seen.insert(name).inserted, let control = controls.first(where: { $0.v4l2Name == name }),
                  let value = control.value else { return nil }
            return ControlAssignment(name: name, value: value)
        }
    }

    /// Automatic exposure (`exposure_auto` to its automatic entry), or a fixed time: `exposure_auto`
    /// to manual and `exposure_absolute` (100 µs units) to `microseconds` rounded to the nearest unit.
    ///
    /// - Throws: ``ControlError/Kind/outOfRange`` with the range in microseconds.
    public func setExposure(_ mode: ControlSettings.Mode) throws(ControlError) -> [ControlAssignment] {
        let controls = try listControls()
        let auto = try required(.exposureAuto, "exposure_auto", in: controls)
        switch mode {
        case .automatic:
            let entry = auto.menu.last { $0.value != Int64(ControlID.exposureManual) }
            guard let entry else {
                throw ControlError(.notSettable, device: path, control: "exposure_auto", detail: "it offers no automatic mode")
            }
            return [try set(auto, to: entry.value)]
        case .manual(let microseconds):
            let absolute = try required(.exposureAbsolute, "exposure_absolute", in: controls)
            let units = microseconds / 100 + (microseconds % 100 >= 50 ? 1 : 0)  // nearest; no overflow
            guard microseconds > 0, absolute.accepts(units) else {
                throw ControlError(
                    .outOfRange, device: path, control: "exposure \(microseconds) µs",
                    detail: "exposure takes \(absolute.minimum * 100)...\(absolute.maximum * 100) µs "
                        + "(exposure_absolute \(absolute.allowedValues), in 100 µs units)")
            }
            return [try set(auto, to: Int64(ControlID.exposureManual)), try set(absolute, to: units)]
        }
    }

    /// Continuous autofocus (`focus_auto` on), or a fixed focus: `focus_auto` off and
    /// `focus_absolute` to `value`.
    ///
    /// - Throws: ``ControlError/Kind/outOfRange`` with `focus_absolute`'s range.
    public func setFocus(_ mode: ControlSettings.Mode) throws(ControlError) -> [ControlAssignment] {
        let controls = try listControls()
        let auto = try required(.focusAuto, "focus_auto", in: controls)
        switch mode {
        case .automatic:
            return [try set(auto, to: 1)]
        case .manual(let value):
            let absolute = try required(.focusAbsolute, "focus_absolute", in: controls)
            try check(absolute, value)
            return [try set(auto, to: 0), try set(absolute, to: value)]
        }
    }

    // MARK: Helpers

    private func listControls() throws(ControlError) -> [CameraControl] {
        do { return try controls() } catch { throw ControlError(.device, device: path, control: "controls", detail: "", cause: error) }
    }

    private func required(_ id: ControlID, _ name: String, in controls: [CameraControl]) throws(ControlError) -> CameraControl {
        guard let control = controls.first(where: { $0.id == id }) else {
            throw ControlError(.notSettable, device: path, control: name, detail: "the camera has no such control")
        }
        return control
    }

    private func check(_ control: CameraControl, _ value: Int64) throws(ControlError) {
        guard control.kind.hasValue, !control.isReadOnly else {
            throw ControlError(.notSettable, device: path, control: control.v4l2Name,
                               detail: control.isReadOnly ? "it is read-only" : "it holds no number")
        }
        guard control.accepts(value), let _ = Int32(exactly: value) else {
            throw ControlError(.outOfRange, device: path, control: "\(control.v4l2Name)=\(value)",
                               detail: "\(control.v4l2Name) takes \(control.allowedValues)")
        }
    }

    /// Checks `value` against what `control` takes, then sets it.
    private func set(_ control: CameraControl, to value: Int64) throws(ControlError) -> ControlAssignment {
        try check(control, value)
        do {
            try set(control.id, to: Int32(value))
        } catch {
            if error.errno == ERANGE {
                throw ControlError(.outOfRange, device: path, control: "\(control.v4l2Name)=\(value)",
                                   detail: "\(control.v4l2Name) takes \(control.allowedValues)")
            }
            throw ControlError(.device, device: path, control: "\(control.v4l2Name)=\(value)", detail: "", cause: error)
        }
        return ControlAssignment(name: control.v4l2Name, value: value)
    }
}
