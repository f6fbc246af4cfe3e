// Empire at War / Forces of Corruption references the object pass does not follow, as ModVerify checks them
// (AlamoEngine-Tools/ModVerify, src/ModVerify/Verifiers/): the samples of SFX events, the textures of GUI dialogs,
// the command bar's components (shell models, textures) and the icons objects name. Part of check::checkMount's
// object pass (no Qt).
//
// Where the engine finds what these name (ModVerify's PetroglyphTools engine, facts only):
//   - SFX samples (SFXEvent <Samples>, <Pre_Samples>, <Post_Samples> of the files Data/XML/SFXEventFiles.xml lists)
//     are opened by the name as written (GameRepository.TryOpenFile; FocGameRepository.FindFile: the mods' folders
//     when the name starts with Data\, the game folder, then the master MEG by the CRC of the upper-cased name).
//     The master MEG also holds Data/Audio/SFX/SFX2D_NON_LOCALIZED.MEG, SFX3D_NON_LOCALIZED.MEG and each language's
//     SFX2D_<LANGUAGE>.MEG (GameRepository.InitializeInstalledSfxMegFiles), whose entries are bare file names.
//     So a bare name ("UNIT_FIRE_01.WAV") is found in those archives, and a file a mod keeps loose is found when the
//     XML names its path ("Data\Audio\SFX\UNIT_FIRE_01.WAV", as the EaWX mods write it). pg-starwarsgame-lsp
//     (MegAssetCatalogBuilder.ApplySfxConventions) treats the SFX archives as the folder Data/Audio/SFX/ and also
//     accepts a bare name that only a loose Data/Audio/SFX/<name> holds: the two tools disagree there, so that case
//     is information (sfx.sample-loose-only), not a defect. Localised events name the English file (_ENG.WAV):
//     checked as written.
//   - GUI dialog textures (Data/XML/GUIDialogs.xml: <Textures File= Compressed_File=>, its first child the default
//     component, each child element a component type and its texture): GuiDialogGameManager.TextureExists. "none"
//     is no texture; Scanlines: a texture file only; Button_Middle: a texture file first (then the button's other
//     middle states are texture files only and its left/right parts are not loaded), else the mega texture; every
//     other type: the mega texture directory Data/Art/Textures/<File>.mtd (names of at most 63 characters, used
//     only when <File>.tga exists), Frame_Background falling back to a texture file.
//   - The command bar (Data/XML/CommandBarComponentFiles.xml and the files it lists): a Shell component's
//     Model_Name is Data/Art/Models/<name> (CommandBarShellComponent.ModelPath; a shell without one is refused,
//     CMDBAR04); its mega texture is Data/Art/Textures/MT_COMMANDBAR.mtd with MT_COMMANDBAR.tga
//     (CommandBarGameManager.SetMegaTexture); an object's <Icon_Name> must be in that mega texture directory
//     (CommandBarGameManager.IconExists: CRC of the upper-cased name; faction-prefixed variants are not judged).
//     The components' *_Texture_Name tags are not checked by ModVerify (a TODO there): rigscope accepts a name
//     found in MT_COMMANDBAR.mtd or as a texture file (Data/Art/Textures/, .tga/.dds) and reports the others.
#pragma once

#include "check/check.h"

#include <string>
#include <vector>

namespace rs::vfs {
class MountTable;
}

namespace rs::check {

// Adds an sfx.*, gui.* or commandbar.* finding for each reference above that does not resolve in the mount.
// Files that resolve are added to `referenced`. Nothing is judged for a kind of definition file the mount does not
// hold (no SFXEventFiles.xml: no sample is judged).
void checkAlamoReferences(const vfs::MountTable& table, std::vector<Finding>& out,
                          std::vector<std::string>& referenced);

// The catalogue rows of these ids (check.cpp appends them to catalog()).
const std::vector<CheckInfo>& alamoReferenceChecks();

// Names in a mega texture directory (.mtd: a little-endian u32 count, then per record a 64-byte NUL-padded ASCII
// name, x, y, width, height as u32 and an alpha byte; PetroglyphTools MdtFileReader), upper-cased. Throws
// ParseError naming `file` and the record when the count does not fit the bytes.
std::vector<std::string> readMtdNames(const uint8_t* data, size_t size, const std::string& file);

} // namespace rs::check
